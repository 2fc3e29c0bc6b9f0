import type { FastifyInstance, FastifyRequest } from 'fastify';

/** A JavaScript identifier path (e.g. `cb`, `jQuery123_456`, `app.handlers.x`): nothing that could inject script. */
export const CALLBACK_NAME = /^[A-Za-z_$][A-Za-z0-9_$.]{0,63}$/;

/**
 * `?callback=NAME` wraps JSON answers as `NAME(json);` (after an empty comment) with type application/javascript. An invalid
 * NAME is ignored (plain JSON is returned) rather than refused: a bad callback then fails visibly in
 * the browser, and nothing user-supplied is ever echoed into script. The leading comment defeats
 * content-sniffing attacks that rely on the body starting with the callback name. Paths under `exceptUnder` never
 * answer JSONP (v3: a script tag cannot send its API-KEY header, so docs/api-v3.md does not offer it).
 */
/** The JSONP callback a request asks for (its `?callback=`), when it is one this plugin would wrap with; else null. */
export function jsonpCallback(request: FastifyRequest): string | null {
  const callback = (request.query as Record<string, unknown> | undefined)?.callback;
  return typeof callback === 'string' && CALLBACK_NAME.test(callback) ? callback : null;
}

export function installJsonp(app: FastifyInstance, options: { exceptUnder: readonly string[] } = { exceptUnder: [] }): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (options.exceptUnder.some((prefix) => request.url === prefix || request.url.startsWith(`${prefix}/`))) return payload;
    const callback = jsonpCallback(request);
    if (callback === null || typeof payload !== 'string') return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (!type.startsWith('application/json')) return payload;
    reply.header('content-type', 'application/javascript; charset=utf-8');
    reply.header('x-content-type-options', 'nosniff');
    return `/**/${callback}(${payload});`;
  });
}
