import type { FastifyContextConfig, FastifyInstance } from 'fastify';

/** The operation a path that stops short belongs to, and the first required parameter it lacks. */
export interface MissingSegment {
  /** The operation's route config (its declared error shape). */
  readonly config: FastifyContextConfig;
  /** The missing parameter, as the route names it (`address`, `txid`, …). */
  readonly key: string;
  /** The operation's path, e.g. `/api/v2/get_address_balance/{network}/{address}[/{confirmations}]`. */
  readonly pattern: string;
}

interface Route {
  readonly methods: readonly string[];
  /** Static segments as text; parameters as `{ name, optional }`. */
  readonly segments: readonly (string | { readonly name: string; readonly optional: boolean })[];
  readonly config: FastifyContextConfig;
  readonly pattern: string;
}

/**
 * `/api/v2/get_tx/BTC` names an operation but leaves out a required segment, so no route matches and the client
 * would get the generic "no endpoint" answer. The table records every route under `prefix` as it is added and
 * says which operation such a path belongs to and which parameter it lacks, so the not-found handler can answer
 * with that operation's own error (v2 shape A naming the key, v3's error body). Call before adding the routes.
 */
export class RouteTable {
  private readonly routes: Route[] = [];

  constructor(app: FastifyInstance, private readonly prefix: string) {
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith(`${prefix}/`)) return;
      const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((m) => String(m).toUpperCase());
      const segments = route.url.split('/').filter((s) => s !== '').map((s) => (s.startsWith(':') ? { name: s.slice(1).replace(/\?$/, ''), optional: s.endsWith('?') } : s));
      const pattern = '/' + segments.map((s) => (typeof s === 'string' ? s : s.optional ? `[{${s.name}}]` : `{${s.name}}`)).join('/').replace(/\/\[/g, '[/');
      this.routes.push({ methods, segments, config: route.config ?? {}, pattern });
    });
  }

  /** The operation `url` is a shortened path of, or null (not under the prefix, or not a prefix of any route). */
  find(method: string, url: string): MissingSegment | null {
    const path = url.split('?')[0]!;
    if (!path.startsWith(`${this.prefix}/`)) return null;
    const given = path.split('/').filter((s, i, all) => i > 0 && !(s === '' && i === all.length - 1));
    if (given.some((s) => s === '')) return null;
    const asked = method === 'HEAD' ? 'GET' : method;
    for (const route of this.routes) {
      if (!route.methods.includes(asked) || given.length >= route.segments.length) continue;
      const next = route.segments[given.length]!;
      if (typeof next === 'string' || next.optional) continue;
      if (given.every((s, i) => typeof route.segments[i] !== 'string' || route.segments[i] === s)) {
        return { config: route.config, key: next.name, pattern: route.pattern };
      }
    }
    return null;
  }
}

/** What the missing key's error says. */
export function missingSegmentMessage(missing: MissingSegment): string {
  return `${missing.key} is missing from the path (${missing.pattern})`;
}
