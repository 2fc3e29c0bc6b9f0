/**
 * Heap per idle realtime connection, measured apart from the full realtime bench (whose RSS figure is allocator
 * noise on a loaded machine): attachRealtime on a plain HTTP server in a child process, N websockets opened from
 * this process, the server's heap after four forced collections before and after.
 * `node --import tsx bench/realtime-memory.bench.ts [N=5000]`
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { WebSocket } from 'ws';
import { MemoryEventBus, silentLogger } from '../src/core/index.js';
import { attachRealtime } from '../src/realtime/attach-realtime.js';

interface Memory { readonly heap: number; readonly rss: number }

async function server(connections: number): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const memory = (): Memory => {
    for (let i = 0; i < 4; i++) gc();
    const m = process.memoryUsage();
    return { heap: m.heapUsed, rss: m.rss };
  };
  const http = createServer((_req, res) => res.writeHead(404).end());
  attachRealtime(http, { appKey: 'k', bus: new MemoryEventBus(), networks: new Map(), logger: silentLogger, limits: { maxConnections: connections + 100, maxConnectionsPerIp: connections + 100 } });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  process.stdout.write(`${JSON.stringify({ port: (http.address() as AddressInfo).port, before: memory() })}\n`);
  process.stdin.once('data', () => process.stdout.write(`${JSON.stringify({ after: memory() })}\n`));
}

async function measure(connections: number): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, '--server', String(connections)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const { port, before } = JSON.parse((await lines.next()).value as string) as { port: number; before: Memory };
  const sockets: WebSocket[] = [];
  for (let i = 0; i < connections; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, connections - i) }, () => new Promise<void>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/app/k?protocol=7`);
      sockets.push(ws);
      ws.once('message', () => resolve());
      ws.once('error', () => resolve());
    })));
  }
  child.stdin!.write('measure\n');
  const { after } = JSON.parse((await lines.next()).value as string) as { after: Memory };
  const per = (key: keyof Memory): string => ((after[key] - before[key]) / connections / 1024).toFixed(2);
  console.log(`realtime memory: ${connections} idle connections: heap ${per('heap')} KiB, RSS ${per('rss')} KiB per connection`);
  for (const ws of sockets) ws.terminate();
  child.kill();
}

const [flag, count] = process.argv.slice(2);
if (flag === '--server') await server(Number(count));
else await measure(Number(flag ?? 5000));
