/** Runs the stand-in node in its own process (stand-in-node-main.ts) and talks to it over its RPC. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RpcClient } from '../../src/node/rpc/rpc-client.js';

const MAIN = fileURLToPath(new URL('./stand-in-node-main.ts', import.meta.url));

export class StandInProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    private readonly rpc: RpcClient,
  ) {}

  static async start(dir: string, revealed: number, mempoolSeed?: number): Promise<StandInProcess> {
    const seed = mempoolSeed !== undefined ? ['--mempool-seed', String(mempoolSeed)] : [];
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--dir', dir, '--revealed', String(revealed), '--user', 'bench', '--password', 'bench', ...seed], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /LISTENING (\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`stand-in node exited with ${code}`)));
    });
    return new StandInProcess(child, url, new RpcClient({ url, retries: 0 }));
  }

  /** Makes the chain up to `height` visible; returns the height now served. */
  reveal(height: number): Promise<number> {
    return this.rpc.call<number>('standin_reveal', [height]);
  }

  /** Adds `count` txs to the node's mempool; `at` is when it had them (ms since the epoch, the node's clock). */
  addMempool(count: number): Promise<{ at: number; txids: string[] }> {
    return this.rpc.call('standin_mempool_add', [count]);
  }

  /** The addresses every mempool tx pays one of. */
  mempoolWatched(): Promise<string[]> {
    return this.rpc.call('standin_mempool_watched');
  }

  async stop(): Promise<void> {
    this.rpc.close();
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}
