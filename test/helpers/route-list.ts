/**
 * Every route a Fastify app registered, from Fastify's own listing (`printRoutes`, a tree whose children continue
 * their parent's path: optional segments hang below the route without them), read back into whole URLs. HEAD is left
 * out: Fastify adds one for every GET.
 */
import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  readonly method: string;
  /** Fastify's form: /api/v3/transactions/:network/:address/:page. */
  readonly url: string;
}

export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const url = (stack[depth - 1] ?? '') + match[2]!;
    stack.push(url);
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim()).filter((m) => m !== '' && m !== 'HEAD')) routes.push({ method, url });
  }
  return routes;
}
