import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import type { ReadScope } from '../../core/store/read-replicas.js';
import { installReadScope } from './read-scope.plugin.js';

/** A scope that numbers each run, as the store's router marks a request's reads with the replica it picked. */
function numberedScope(): ReadScope & { current(): number | undefined } {
  const storage = new AsyncLocalStorage<number>();
  let runs = 0;
  return { run: (fn) => storage.run(++runs, fn), current: () => storage.getStore() };
}

describe('installReadScope', () => {
  it('each request, GET or POST with a body, runs its handler in a scope of its own', async () => {
    const scope = numberedScope();
    const app = Fastify();
    installReadScope(app, scope);
    app.get('/r', async () => {
      const before = scope.current();
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { before, after: scope.current() };
    });
    app.post('/w', async (request) => ({ scope: scope.current(), body: request.body }));
    const answers = await Promise.all([1, 2, 3].map(() => app.inject({ method: 'GET', url: '/r' })));
    const seen = answers.map((a) => a.json() as { before: number; after: number });
    for (const s of seen) assert.equal(s.before, s.after, 'the same scope after an await');
    assert.equal(new Set(seen.map((s) => s.before)).size, 3, 'one scope per request');
    // Over a socket: the body arrives in the connection's own events, outside the scope entered in onRequest.
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const response = await fetch(`${url}/w`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: 1 }) });
    const posted = (await response.json()) as { scope: number | undefined; body: unknown };
    assert.equal(typeof posted.scope, 'number', 'a handler after a request body is still in its scope');
    assert.deepEqual(posted.body, { a: 1 });
    await app.close();
  });
});
