import { difficultyFromBits, parseTransaction } from '../../chains/parsing.js';
import { NotFoundError } from '../../core/domain/errors.js';
import type { Sats } from '../../core/domain/money.js';
import type { BlockRecord, TxRecord } from '../../core/store/chain-reads.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import { rawTxsOf } from '../transactions/raw-tx-reader.js';
import { confirmationsAt } from '../shared/confirmations.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';

export interface BlockView {
  readonly network: NetworkContext;
  readonly block: BlockRecord;
  /** 0 for orphaned blocks. */
  readonly confirmations: number;
  readonly difficulty: number;
}

/** One transaction line of the block display. */
export interface BlockTxSummary {
  readonly txid: string;
  /** null for the coinbase. */
  readonly fee: Sats | null;
  readonly sentValue: Sats;
  readonly inputCount: number;
  readonly outputCount: number;
}

export interface BlockDisplay extends BlockView {
  readonly txs: readonly BlockTxSummary[];
}

/** Heights beyond any chain we could index: anything longer is garbage, not a block number. */
const MAX_HEIGHT_DIGITS = 9;
const HASH = /^[0-9a-fA-F]{64}$/;
/** Concurrent tx reads for the block display (PostgreSQL pool-friendly; SQLite reads are synchronous anyway). */
const READ_BATCH = 16;

/** Parses a non-negative decimal block number; null when the text is not one. */
export function parseHeight(text: string): number | null {
  if (!/^\d+$/.test(text) || text.length > MAX_HEIGHT_DIGITS) return null;
  return Number(text);
}

export class BlockService {
  constructor(private readonly networks: NetworkRegistry) {}

  async hashAt(network: string, blockNo: string): Promise<{ network: NetworkContext; hash: string; height: number }> {
    const ctx = this.networks.resolve(network);
    const height = parseHeight(blockNo);
    const hash = height === null ? null : await ctx.reader.getMainChainHash(height);
    if (height === null || hash === null) throw new NotFoundError('block_no', 'a block number of the main chain is required');
    return { network: ctx, hash, height };
  }

  /** `blockId` is a 64-hex hash (main chain or orphaned) or a main-chain height. */
  async get(network: string, blockId: string, field = 'blockid'): Promise<BlockView> {
    const ctx = this.networks.resolve(network);
    const block = await findBlock(ctx.reader, blockId);
    if (!block) throw new NotFoundError(field, 'a block hash or block number is required');
    const tip = await ctx.reader.getTip();
    return {
      network: ctx,
      block,
      confirmations: block.isOrphan ? 0 : confirmationsAt(tip, block.height),
      difficulty: difficultyFromBits(block.bits),
    };
  }

  async display(network: string, blockId: string): Promise<BlockDisplay> {
    const view = await this.get(network, blockId);
    const ids = view.block.txids;
    const records: (TxRecord | null)[] = [];
    for (let i = 0; i < ids.length; i += READ_BATCH) {
      records.push(...(await Promise.all(ids.slice(i, i + READ_BATCH).map((id) => view.network.reader.getTransaction(id)))));
    }
    // All at once: with raw_txs = "node" one getblock serves the whole block.
    const known = records.filter((r): r is TxRecord => r !== null);
    const raws = new Map((await rawTxsOf(view.network, known)).map((raw, i) => [known[i]!.txid, raw] as const));
    const txs: BlockTxSummary[] = [];
    for (const [j, record] of records.entries()) {
      if (!record) {
        txs.push({ txid: ids[j]!, fee: null, sentValue: 0n, inputCount: 0, outputCount: 0 });
        continue;
      }
      const tx = parseTransaction(raws.get(record.txid)!, { mweb: view.network.params.features.mweb });
      txs.push({
        txid: record.txid,
        fee: record.fee,
        sentValue: tx.outputs.reduce((sum, o) => sum + o.value, 0n),
        inputCount: tx.inputs.length,
        outputCount: tx.outputs.length,
      });
    }
    return { ...view, txs };
  }
}

async function findBlock(reader: NetworkReader, blockId: string): Promise<BlockRecord | null> {
  if (HASH.test(blockId)) return reader.getBlockByHash(blockId.toLowerCase());
  const height = parseHeight(blockId);
  return height === null ? null : reader.getBlockByHeight(height);
}
