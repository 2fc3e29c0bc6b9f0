/**
 * The Electrum server's two connection limits that the process tests (test/e2e/electrum-litecoin.test.ts) leave to
 * this file, on real sockets with the server in this process (`server.ping` needs no store): `[electrum]
 * max_connections` (a network's connections at once: one past it is closed as it arrives, and one is taken again when
 * another closes) and `idle_timeout_s` (a connection that sends nothing is closed; one that keeps asking stays), each
 * also counted in `outpoint_electrum_refused_total` where it refuses.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { silentLogger } from '../../src/core/index.js';
import { startElectrum, type ElectrumHandle } from '../../src/electrum/attach-electrum.js';
import type { ElectrumLimits } from '../../src/electrum/sessions/electrum-limits.js';
import { PromMetrics } from '../../src/metrics/prom-metrics.js';
import type { ElectrumNetworkServices } from '../../src/services/electrum/electrum-services.js';
import { ElectrumTestClient } from '../helpers/electrum-test-client.js';
import { waitFor } from '../helpers/wait-for.js';

const LIMITS: ElectrumLimits = {
  maxConnectionsPerIp: 0, maxConnections: 3, maxSubscriptionsPerConnection: 10, maxSubscriptions: 10, maxRequestBytes: 65_536,
  requestsPerSecond: 0, idleTimeoutMs: 600_000, maxSendBufferBytes: 2 ** 20,
};

const handles: ElectrumHandle[] = [];
after(async () => {
  for (const h of handles) await h.close();
});

async function server(limits: Partial<ElectrumLimits>): Promise<{ port: number; metrics: PromMetrics }> {
  const metrics = new PromMetrics();
  // Only server.* methods are asked here: they read no service.
  const services = { scripthashes: {} } as unknown as ElectrumNetworkServices;
  const handle = await startElectrum({
    networks: new Map([['BTCTEST', { services, listen: { tcp: { host: '127.0.0.1', port: 0 } } }]]),
    serverVersion: 'Outpoint test', banner: '', donationAddress: '', limits: { ...LIMITS, ...limits }, tls: null,
    changes: () => () => undefined, metrics, logger: silentLogger,
  });
  handles.push(handle);
  return { port: Number(handle.listeners[0]!.address.split(':').at(-1)), metrics };
}

async function refused(metrics: PromMetrics, limit: string): Promise<number> {
  const text = await metrics.render();
  const line = text.split('\n').find((l) => l.startsWith('outpoint_electrum_refused_total{') && l.includes(`limit="${limit}"`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('Electrum connection limits', () => {
  it('max_connections: one past it is closed as it arrives; one is taken again when another closes', async () => {
    const { port, metrics } = await server({ maxConnections: 3 });
    const clients: ElectrumTestClient[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        clients.push(await ElectrumTestClient.connect({ kind: 'tcp', port }));
        assert.equal(await clients.at(-1)!.request('server.ping'), null);
      }
      const fourth = await ElectrumTestClient.connect({ kind: 'tcp', port });
      await waitFor(() => fourth.closed, 10_000, 'the fourth connection closed');
      assert.equal(await refused(metrics, 'connections'), 1);
      clients.shift()!.close();
      // The freed place is taken again (the close reaches the server asynchronously: ask until it is).
      await waitFor(async () => {
        const next = await ElectrumTestClient.connect({ kind: 'tcp', port });
        if ((await next.request('server.ping').catch(() => 'closed')) === null) {
          clients.push(next);
          return true;
        }
        next.close();
        return false;
      }, 10_000, 'a connection taken again', 50);
    } finally {
      for (const c of clients) c.close();
    }
  });

  it('idle_timeout_s: a connection that sends nothing is closed, one that keeps asking stays open', async () => {
    const { port } = await server({ idleTimeoutMs: 400 });
    const idle = await ElectrumTestClient.connect({ kind: 'tcp', port });
    const busy = await ElectrumTestClient.connect({ kind: 'tcp', port });
    try {
      const started = performance.now();
      // The busy one asks every 100 ms while the idle one is waited for.
      await waitFor(async () => {
        assert.equal(await busy.request('server.ping'), null);
        return idle.closed;
      }, 10_000, 'the idle connection closed', 100);
      assert.ok(performance.now() - started >= 350, 'not before its idle time');
      // Past twice the idle time, the busy one still answers.
      await waitFor(async () => {
        assert.equal(await busy.request('server.ping'), null);
        return performance.now() - started > 1_000;
      }, 10_000, 'a second of asking', 100);
      assert.equal(busy.closed, false);
    } finally {
      idle.close();
      busy.close();
    }
  });
});
