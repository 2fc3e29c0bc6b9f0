/** A small generated scale chain (bench/scale) in a temporary directory, served by a stand-in node, for tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BlockFileWriter, ChainFiles } from '../../bench/scale/block-files.js';
import { ChainGenerator } from '../../bench/scale/chain-generator.js';
import type { TrackedAddress } from '../../bench/scale/generator-stats.js';
import { StandInNode, type StandInNodeOptions } from '../../bench/scale/stand-in-node.js';
import { NodeClient } from '../../src/node/rpc/node-client.js';
import { RpcClient } from '../../src/node/rpc/rpc-client.js';

export interface StandInChain {
  readonly files: ChainFiles;
  readonly node: StandInNode;
  readonly url: string;
  readonly rpc: RpcClient;
  readonly client: NodeClient;
  readonly tracked: TrackedAddress[];
  close(): Promise<void>;
}

export interface StandInChainOptions {
  readonly seed: number;
  readonly blocks: number;
  readonly blockTxs: number;
  readonly trackedIds?: readonly number[];
  readonly node?: Omit<StandInNodeOptions, 'chain'>;
}

export async function standInChain(options: StandInChainOptions): Promise<StandInChain> {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-stand-in-'));
  const generator = new ChainGenerator(options.seed, { blockTxs: options.blockTxs }, options.trackedIds ?? []);
  const writer = new BlockFileWriter(dir);
  for (let h = 0; h < options.blocks; h++) writer.append(generator.next());
  writer.close({});
  const files = ChainFiles.open(dir);
  const node = new StandInNode({ chain: files, ...options.node });
  const url = await node.listen();
  const rpc = new RpcClient({ url, retries: 0 });
  return {
    files, node, url, rpc, client: new NodeClient(rpc), tracked: generator.stats.summary().tracked,
    async close() {
      rpc.close();
      await node.close();
      await files.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
