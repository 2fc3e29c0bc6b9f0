/** A throwaway redis-server on a free loopback port, no persistence. Fails (never skips) when Redis is missing. */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { freePort } from './free-port.js';
import { waitFor } from './regtest-node.js';

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGKILL: no goodbye to clients), waits `downMs`, starts a new one on the same port. */
  restart(downMs: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child = await launch(port);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async restart(downMs: number) {
      await halt(child, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, downMs));
      child = await launch(port);
    },
    async stop() {
      await halt(child, 'SIGTERM');
    },
  };
}

async function halt(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

async function launch(port: number): Promise<ChildProcess> {
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
    { stdio: 'ignore' },
  );
  const failed = new Promise<never>((_, reject) => child.once('error', (err) => reject(new Error(`redis-server could not start (install the Debian package redis-server): ${err.message}`))));
  const listening = waitFor(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      }),
    10_000,
    'redis-server listening',
  );
  await Promise.race([listening, failed]);
  return child;
}
