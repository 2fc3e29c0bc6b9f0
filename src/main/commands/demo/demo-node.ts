import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { RpcClient } from '../../../node/rpc/rpc-client.js';

const LITECOIND = process.env['LITECOIND'] ?? '/usr/lib/litecoin/litecoind';

/** A throwaway litecoind -regtest in a temp dir on free loopback ports, removed on stop. */
export class DemoNode {
  readonly rpc: RpcClient;
  readonly wallet: RpcClient;

  private constructor(
    readonly datadir: string,
    readonly rpcUrl: string,
    private readonly child: ChildProcess,
  ) {
    this.rpc = new RpcClient({ url: rpcUrl, retries: 0 });
    this.wallet = new RpcClient({ url: `${rpcUrl}/wallet/demo`, retries: 0 });
  }

  static async start(): Promise<DemoNode> {
    const datadir = mkdtempSync(join(tmpdir(), 'outpoint-demo-'));
    const [rpcPort, p2pPort] = await freePorts(2);
    const password = randomBytes(12).toString('hex');
    const child = spawn(
      LITECOIND,
      [
        `-datadir=${datadir}`, '-regtest', '-server', '-txindex=1', '-fallbackfee=0.0002', '-printtoconsole=0',
        '-listen=0', `-port=${p2pPort}`, '-rpcbind=127.0.0.1', '-rpcallowip=127.0.0.1', `-rpcport=${rpcPort}`,
        '-rpcuser=demo', `-rpcpassword=${password}`,
      ],
      { stdio: 'ignore' },
    );
    const node = new DemoNode(datadir, `http://demo:${password}@127.0.0.1:${rpcPort}`, child);
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await node.rpc.call('getblockcount');
        break;
      } catch (err) {
        if (child.exitCode !== null || Date.now() > deadline) {
          node.cleanup();
          throw new Error(`litecoind did not start (${LITECOIND}): ${(err as Error).message}`);
        }
        await delay(200);
      }
    }
    await node.rpc.call('createwallet', ['demo']);
    return node;
  }

  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => (this.child.exitCode !== null ? resolve() : this.child.once('exit', () => resolve())));
    await this.rpc.call('stop').catch(() => this.child.kill('SIGKILL'));
    this.rpc.close();
    this.wallet.close();
    const timeout = new AbortController();
    const killLater = delay(30_000, undefined, { signal: timeout.signal }).then(
      () => this.child.kill('SIGKILL'),
      () => undefined,
    );
    await Promise.race([exited, killLater]);
    timeout.abort();
    this.cleanup();
  }

  private cleanup(): void {
    rmSync(this.datadir, { recursive: true, force: true });
  }
}

async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<net.Server>((resolve) => {
      const server = net.createServer();
      server.listen(0, '127.0.0.1', () => resolve(server));
    })),
  );
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}
