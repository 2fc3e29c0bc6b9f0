/**
 * The Electrum load generator, in its own process for the same reason as bench/load-client.ts: on a 2-core machine a
 * client sharing a process with anything it measures takes that CPU. `connections` TCP connections each keep one
 * request in flight (as autocannon does for HTTP) for `seconds`; request i asks `method` with paramsList[i % n].
 *
 *   measureElectrumInChild({ host, port, method, paramsList, connections, seconds }) → req/s, p50, p99, failures
 */
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { measureInChildScript } from './child-measure.js';
import { ElectrumClient } from './electrum-client.js';
import type { LoadResult } from './load-client.js';

export interface ElectrumLoadRequest {
  readonly host: string;
  readonly port: number;
  readonly method: string;
  readonly paramsList: readonly (readonly unknown[])[];
  readonly connections: number;
  readonly seconds: number;
}

const SELF = fileURLToPath(import.meta.url);
/** How long answers still in flight at the end may take before they count as failed. */
const DRAIN_MS = 10_000;

export function measureElectrumInChild(request: ElectrumLoadRequest): Promise<LoadResult> {
  return measureInChildScript<LoadResult>(SELF, request, 'electrum load client');
}

/** The q-quantile of sorted latencies, in ms rounded to 0.01. */
function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 100) / 100;
}

export async function runElectrumLoad(request: ElectrumLoadRequest): Promise<LoadResult> {
  const clients = await Promise.all(Array.from({ length: request.connections }, () => ElectrumClient.connect(request.host, request.port)));
  // The handshake a wallet sends first, outside the timed span.
  await Promise.all(clients.map((c) => c.request('server.version', ['outpoint-bench', '1.4'])));
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const deadline = started + request.seconds * 1000;
  const worker = async (client: ElectrumClient): Promise<void> => {
    while (performance.now() < deadline) {
      const params = request.paramsList[next++ % request.paramsList.length]!;
      const sent = performance.now();
      try {
        await client.request(request.method, params);
        latencies.push(performance.now() - sent);
      } catch {
        failed++;
        if (client.isClosed()) return;
      }
    }
  };
  const done = Promise.all(clients.map(worker));
  await Promise.race([done, delay(request.seconds * 1000 + DRAIN_MS)]);
  const elapsedSeconds = (performance.now() - started) / 1000;
  for (const c of clients) c.close(); // anything still pending now is rejected and counted by its worker
  await done;
  const sorted = Float64Array.from(latencies).sort();
  return {
    rps: latencies.length / elapsedSeconds,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    failed,
    total: latencies.length + failed,
    clientCpuMicros: ((used) => used.user + used.system)(process.cpuUsage(cpu)),
  };
}

async function childMain(): Promise<void> {
  let input = '';
  for await (const chunk of process.stdin) input += String(chunk);
  const result = await runElectrumLoad(JSON.parse(input) as ElectrumLoadRequest);
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

if (process.argv[2] === '--child') await childMain();
