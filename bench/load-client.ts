/**
 * The HTTP load generator of the API benches, in its own process: on a 2-core machine a client sharing the server's
 * event loop takes CPU from the server it measures and hides the server's own ceiling. An external client (as the
 * peer's figures were taken) leaves the server its process.
 *
 *   measureInChild({ url, paths, connections, seconds }) → req/s, p50, p99, failures
 */
import { fileURLToPath } from 'node:url';
import { measureInChildScript } from './child-measure.js';

export interface LoadRequest {
  readonly url: string;
  /** Rotated: request i asks for paths[i % paths.length]. */
  readonly paths: readonly string[];
  readonly connections: number;
  readonly seconds: number;
}

export interface LoadResult {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly failed: number;
  readonly total: number;
  /** CPU time the load generator itself used (user + system), microseconds. */
  readonly clientCpuMicros: number;
}

const SELF = fileURLToPath(import.meta.url);

export function measureInChild(request: LoadRequest): Promise<LoadResult> {
  return measureInChildScript<LoadResult>(SELF, request, 'load client');
}

async function childMain(): Promise<void> {
  let input = '';
  for await (const chunk of process.stdin) input += String(chunk);
  const request = JSON.parse(input) as LoadRequest;
  const { default: autocannon } = await import('autocannon');
  let i = 0;
  const cpu = process.cpuUsage();
  const result = await autocannon({
    url: request.url,
    connections: request.connections,
    duration: request.seconds,
    requests: [{ setupRequest: (req) => ({ ...req, path: request.paths[i++ % request.paths.length]! }) }],
  });
  const out: LoadResult = {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
    total: result.requests.total,
    clientCpuMicros: ((used) => used.user + used.system)(process.cpuUsage(cpu)),
  };
  process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
}

if (process.argv[2] === '--child') await childMain();
