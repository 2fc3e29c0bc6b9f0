import type { FastifyInstance, RouteOptions } from 'fastify';

interface CollectedRoute {
  readonly method: string;
  readonly url: string;
  readonly schema: Record<string, unknown>;
}

export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  readonly serverUrl: string;
}

/** `/a/:x/:y?` → ['/a/{x}/{y}', '/a/{x}']: OpenAPI has no optional path segments, so each variant is a path. */
function openApiPaths(url: string): string[] {
  const optional = /\/:([A-Za-z_]+)\?$/.exec(url);
  const convert = (u: string) => u.replace(/:([A-Za-z_]+)\??/g, '{$1}');
  return optional ? [convert(url), convert(url.slice(0, optional.index))] : [convert(url)];
}

function operation(route: CollectedRoute, path: string): Record<string, unknown> {
  const { summary, tags, params, body, response } = route.schema as {
    summary?: string;
    tags?: string[];
    params?: { properties?: Record<string, Record<string, unknown>> };
    body?: unknown;
    response?: Record<string, unknown>;
  };
  const inPath = new Set([...path.matchAll(/\{([A-Za-z_]+)\}/g)].map((m) => m[1]!));
  const parameters: Record<string, unknown>[] = Object.entries(params?.properties ?? {})
    .filter(([name]) => inPath.has(name))
    .map(([name, { description, ...schema }]) => ({ name, in: 'path', required: true, description, schema }));
  parameters.push({ name: 'callback', in: 'query', required: false, description: 'JSONP: wrap the answer in a call to this function', schema: { type: 'string' } });
  const responses = Object.fromEntries(
    Object.entries(response ?? {}).map(([status, schema]) => [status, { description: status === '200' ? 'Success' : 'Failure', content: { 'application/json': { schema } } }]),
  );
  return {
    summary,
    tags,
    parameters,
    ...(route.method === 'POST'
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: body ?? { type: 'object', properties: { tx_hex: { type: 'string' } }, required: ['tx_hex'] } },
              'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { tx_hex: { type: 'string' } }, required: ['tx_hex'] } },
            },
          },
        }
      : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document is generated from the route schemas themselves (collected as routes are
 * added), so it cannot drift from what the server validates and serializes. Call before adding routes.
 */
export function installOpenApi(app: FastifyInstance, prefix: string, info: OpenApiInfo): void {
  const routes: CollectedRoute[] = [];
  app.addHook('onRoute', (options: RouteOptions) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    if (!options.url.startsWith(prefix) || !options.schema) return;
    for (const method of methods) if (method === 'GET' || method === 'POST') routes.push({ method, url: options.url, schema: options.schema as Record<string, unknown> });
  });
  let document: string | null = null;
  app.get(`${prefix}/openapi.json`, { config: { rateLimitExempt: true } }, async (_request, reply) => {
    document ??= JSON.stringify(build(routes, info));
    return reply.type('application/json; charset=utf-8').send(document);
  });
}

function build(routes: readonly CollectedRoute[], info: OpenApiInfo): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    for (const path of openApiPaths(route.url)) {
      paths[path] ??= {};
      paths[path][route.method.toLowerCase()] = operation(route, path);
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: 'Outpoint v2 REST API (see docs/api-v2.md).' },
    servers: [{ url: info.serverUrl }],
    paths,
  };
}
