/**
 * The transaction methods of the Electrum protocol (protocol-methods.rst): raw bytes from the index (or the node with
 * raw_txs = "node", raw-tx-reader.ts), the node's verbose form, a confirmed tx's merkle branch to its block's root
 * (the block's txids from the index, the levels of the last blocks asked for kept: a wallet asks for many txs of a
 * few blocks), the txid at a block position, and broadcasts through the node.
 */
import { RpcError, TxRejectedError } from '../../core/domain/errors.js';
import type { TxBroadcaster } from '../../core/sources/broadcaster.js';
import type { ElectrumNodeSource, NodeReply } from '../../core/sources/electrum-node.js';
import { CappedMap } from '../shared/capped-map.js';
import type { NetworkContext } from '../shared/network-registry.js';
import { rawTxOf } from '../transactions/raw-tx-reader.js';
import { ElectrumRequestError } from './electrum-request-error.js';
import { branchOf, displayHex, merkleLevels } from './merkle.js';

/** Blocks whose merkle levels are kept (~64 bytes per tx: 256 kB for a 4,000-tx block). */
const CACHED_BLOCKS = 32;

/** The node refused the tx; as Fulcrum words it (Electrum shows the node's reason). */
export class BroadcastRejectedError extends ElectrumRequestError {
  constructor(reason: string) {
    super(`the transaction was rejected by network rules.\n\n${reason}\n`);
  }
}

export interface TxMerkle {
  readonly block_height: number;
  readonly merkle: string[];
  readonly pos: number;
}

export class ElectrumTxService {
  private readonly trees = new CappedMap<string, { txids: readonly string[]; levels: Uint8Array[][] }>(CACHED_BLOCKS);

  constructor(
    private readonly ctx: NetworkContext,
    private readonly node: ElectrumNodeSource | null,
    private readonly broadcaster: TxBroadcaster,
  ) {}

  /** A confirmed or mempool tx; the node's own wording otherwise (Fulcrum passes it on). */
  private async record(txid: string) {
    const record = await this.ctx.reader.getTransaction(txid);
    if (!record || (record.status !== 'confirmed' && record.status !== 'mempool')) throw new ElectrumRequestError('No such mempool or blockchain transaction');
    return record;
  }

  async raw(txid: string): Promise<string> {
    return Buffer.from(await rawTxOf(this.ctx, await this.record(txid))).toString('hex');
  }

  async verbose(txid: string): Promise<NodeReply> {
    const record = await this.record(txid);
    if (!this.node) throw new ElectrumRequestError('no node is configured to answer verbose transactions');
    return this.node.verboseTx(txid, record.blockHash);
  }

  private async tree(height: number): Promise<{ txids: readonly string[]; levels: Uint8Array[][] }> {
    const hash = await this.ctx.reader.getMainChainHash(height);
    const cached = hash === null ? undefined : this.trees.get(hash);
    if (cached) return cached;
    const block = await this.ctx.reader.getBlockByHeight(height);
    if (!block) throw new ElectrumRequestError(`no block at height ${height}`);
    const tree = { txids: block.txids, levels: merkleLevels(block.txids.map((t) => Buffer.from(t, 'hex').reverse())) };
    this.trees.set(block.hash, tree);
    return tree;
  }

  /** `height` as given, or the tx's own when absent (Fulcrum's extension). */
  async merkle(txid: string, height: number | null): Promise<TxMerkle> {
    const at = height ?? (await this.ctx.reader.getTransaction(txid))?.height ?? null;
    if (at === null) throw new ElectrumRequestError('No confirmed transaction matching the requested hash was found');
    const tree = await this.tree(at).catch((error: unknown) => {
      throw error instanceof ElectrumRequestError ? new ElectrumRequestError(`No transaction matching the requested hash found at height ${at}`) : error;
    });
    const pos = tree.txids.indexOf(txid);
    if (pos < 0) throw new ElectrumRequestError(`No transaction matching the requested hash found at height ${at}`);
    return { block_height: at, merkle: branchOf(tree.levels, pos).map(displayHex), pos };
  }

  async idFromPos(height: number, pos: number, merkle: boolean): Promise<string | { tx_hash: string; merkle: string[] }> {
    const missing = (): ElectrumRequestError => new ElectrumRequestError(`No transaction at position ${pos} for height ${height}`);
    const tree = await this.tree(height).catch((error: unknown) => {
      throw error instanceof ElectrumRequestError ? missing() : error;
    });
    const txid = tree.txids[pos];
    if (txid === undefined) throw missing();
    return merkle ? { tx_hash: txid, merkle: branchOf(tree.levels, pos).map(displayHex) } : txid;
  }

  async broadcast(hex: string): Promise<string> {
    try {
      return await this.broadcaster.broadcast(this.ctx.id, hex);
    } catch (error) {
      throw error instanceof TxRejectedError ? new BroadcastRejectedError(error.reason) : error;
    }
  }

  /** submitpackage; without `verbose`, Fulcrum's summary: success, and each refused tx's txid and reason. */
  async broadcastPackage(hexes: readonly string[], verbose: boolean): Promise<NodeReply> {
    if (!this.node) throw new ElectrumRequestError('no node is configured to submit packages');
    const reply = await this.node.submitPackage(hexes).catch((error: unknown) => {
      // The node refused the package as such (topology, size; a node without submitpackage says so too).
      throw error instanceof RpcError ? new BroadcastRejectedError(error.message) : error;
    });
    if (verbose) return reply;
    const result = (reply ?? {}) as { package_msg?: unknown; 'tx-results'?: Record<string, { txid?: unknown; error?: unknown }> };
    const success = String(result.package_msg).toLowerCase() === 'success';
    const errors = Object.values(result['tx-results'] ?? {}).filter((r) => r && r.error !== undefined).map((r) => ({ txid: r.txid ?? '???', error: String(r.error) }));
    return errors.length > 0 ? { success, errors } : { success };
  }
}
