/**
 * The HTTP load generator of the API benches, in its own process: on a 2-core machine a client sharing the server's
 * event loop takes CPU from the server it measures and hides the server's own ceiling. An external client (as the
 * peer's figures were taken) leaves the server its process.
 *
 *   measureInChild({ url, paths, connections, seconds }) → req/s, p50, p99, failures
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, SELF, '--child'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) reject(new Error(`load client exited with ${code}: ${out.slice(-300)}`));
      else resolve(JSON.parse(line.slice(7)) as LoadResult);
    });
    child.stdin.end(JSON.stringify(request));
  });
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
