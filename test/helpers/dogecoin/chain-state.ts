/**
 * The stand-in's block tree, active chain and UTXO set (validation.cpp's mapBlockIndex, chainActive, pcoinsTip).
 * Blocks are kept as our parser's Block plus the exact bytes the node would serve. Connecting a block checks what
 * ConnectBlock checks on money (inputs exist and are unspent, coinbase maturity, no inflation) and keeps undo data
 * so reorgs restore the spent coins. Chain choice: most work, then first received (setBlockIndexCandidates).
 */
import type { Block, Transaction } from '../../../src/core/domain/chain-types.js';
import { workFromBits } from '../../../src/chains/parsing.js';
import { REGTEST, regtestSubsidy } from './regtest-rules.js';

export interface Coin {
  readonly txid: string;
  readonly vout: number;
  readonly value: bigint;
  readonly script: Uint8Array;
  readonly height: number;
  readonly coinbase: boolean;
}

export interface BlockEntry {
  readonly hash: string;
  readonly height: number;
  readonly parent: BlockEntry | null;
  readonly block: Block;
  readonly chainwork: bigint;
  /** Order of arrival: the tie-break between chains of equal work. */
  readonly sequence: number;
  readonly medianTimePast: number;
  /** invalidateblock on it or an ancestor (BLOCK_FAILED_VALID / BLOCK_FAILED_CHILD). */
  failed: boolean;
  /** Coins its txs spent, while it is connected. */
  undo: Coin[] | null;
}

export class BlockInvalid extends Error {}

export const outpointKey = (txid: string, vout: number): string => `${txid}:${vout}`;

/** OP_RETURN outputs never enter the UTXO set (CScript::IsUnspendable). */
const unspendable = (script: Uint8Array): boolean => script[0] === 0x6a;

export interface ChainHooks {
  /** After a block is disconnected (its coins restored): DisconnectTip's mempool resurrection runs here. */
  disconnected(entry: BlockEntry): void;
  /** After a block is connected. */
  connected(entry: BlockEntry): void;
}

export class ChainState {
  readonly blocks = new Map<string, BlockEntry>();
  readonly active: BlockEntry[] = [];
  readonly utxos = new Map<string, Coin>();
  /** Unspent outputs per txid: getrawtransaction's deprecated no-txindex path finds txs through them. */
  readonly unspentCount = new Map<string, number>();
  /** Main-chain txid → block hash (what -txindex answers from). */
  readonly txBlock = new Map<string, string>();
  #sequence = 0;

  constructor(genesis: Block) {
    const entry = this.#entry(genesis, null);
    this.blocks.set(entry.hash, entry);
    this.active.push(entry);
    entry.undo = [];
    // The genesis coinbase is not added to the UTXO set: "cannot be spent since it did not originally exist in the database".
    this.txBlock.set(genesis.txs[0]!.txid, entry.hash);
  }

  get tip(): BlockEntry {
    return this.active[this.active.length - 1]!;
  }

  isActive(entry: BlockEntry): boolean {
    return this.active[entry.height] === entry;
  }

  /** Adds a block whose parent is known; it becomes a candidate (activate() decides). Returns the existing entry for a known hash. */
  add(block: Block): BlockEntry {
    const known = this.blocks.get(block.header.hash);
    if (known) return known;
    const parent = this.blocks.get(block.header.prevHash);
    if (!parent) throw new BlockInvalid(`prev-blk-not-found ${block.header.prevHash}`);
    const entry = this.#entry(block, parent);
    entry.failed = parent.failed;
    this.blocks.set(entry.hash, entry);
    return entry;
  }

  /** Marks the block and every descendant failed. */
  invalidate(entry: BlockEntry): void {
    for (const e of this.blocks.values()) if (this.#descendsFrom(e, entry)) e.failed = true;
  }

  /** Clears the failure flags of the block, its descendants and its ancestors (ResetBlockFailureFlags). */
  reconsider(entry: BlockEntry): void {
    for (const e of this.blocks.values()) if (this.#descendsFrom(e, entry) || this.#descendsFrom(entry, e)) e.failed = false;
  }

  /** Reorganises onto the most-work valid chain, calling the hooks per block; a block failing ConnectBlock is marked failed. */
  activate(hooks: ChainHooks): { disconnected: BlockEntry[]; connected: BlockEntry[] } {
    const disconnected: BlockEntry[] = [];
    const connected: BlockEntry[] = [];
    for (;;) {
      const best = this.#best();
      if (best === this.tip) return { disconnected, connected };
      const fork = this.#fork(this.tip, best);
      while (this.tip !== fork) {
        const gone = this.#disconnectTip();
        disconnected.push(gone);
        hooks.disconnected(gone);
      }
      const path: BlockEntry[] = [];
      for (let e: BlockEntry | null = best; e && e !== fork; e = e.parent) path.unshift(e);
      for (const e of path) {
        try {
          this.#connect(e);
        } catch (err) {
          if (!(err instanceof BlockInvalid)) throw err;
          this.invalidate(e);
          break;
        }
        connected.push(e);
        hooks.connected(e);
      }
    }
  }

  /** Checks non-coinbase txs for a block on the tip without applying them (the test miner's guard); returns their fees. */
  checkTxs(txs: readonly Transaction[]): bigint {
    return this.#spendTxs(txs, this.tip.height + 1, new Map()).fees;
  }

  #entry(block: Block, parent: BlockEntry | null): BlockEntry {
    // GetMedianTimePast: the median of this block's and its 10 predecessors' times.
    const times = [block.header.time];
    for (let e = parent; e && times.length < 11; e = e.parent) times.push(e.block.header.time);
    times.sort((a, b) => a - b);
    return {
      hash: block.header.hash,
      height: parent ? parent.height + 1 : 0,
      parent,
      block,
      chainwork: (parent?.chainwork ?? 0n) + workFromBits(block.header.bits),
      sequence: this.#sequence++,
      medianTimePast: times[Math.floor(times.length / 2)]!,
      failed: false,
      undo: null,
    };
  }

  #descendsFrom(e: BlockEntry, ancestor: BlockEntry): boolean {
    for (let x: BlockEntry | null = e; x && x.height >= ancestor.height; x = x.parent) if (x === ancestor) return true;
    return false;
  }

  /** Most work among valid blocks, the earliest received on a tie (CBlockIndexWorkComparator). */
  #best(): BlockEntry {
    let best: BlockEntry | null = null;
    for (const e of this.blocks.values()) {
      if (e.failed) continue;
      if (!best || e.chainwork > best.chainwork || (e.chainwork === best.chainwork && e.sequence < best.sequence)) best = e;
    }
    return best ?? this.active[0]!;
  }

  #fork(a: BlockEntry, b: BlockEntry): BlockEntry {
    let x: BlockEntry = a;
    let y: BlockEntry = b;
    while (x.height > y.height) x = x.parent!;
    while (y.height > x.height) y = y.parent!;
    while (x !== y) {
      x = x.parent!;
      y = y.parent!;
    }
    return x;
  }

  /** Validates a block's txs against the coins (plus `created` within the block) and returns the spent coins in order. */
  #spendAll(txs: readonly Transaction[], height: number, created: Map<string, Coin>): Coin[] {
    const [coinbase, ...rest] = txs;
    if (!coinbase?.isCoinbase) throw new BlockInvalid('bad-cb-missing');
    this.#addOutputs(coinbase, height, created);
    const { spent, fees } = this.#spendTxs(rest, height, created);
    const coinbaseOut = coinbase.outputs.reduce((s, o) => s + o.value, 0n);
    if (coinbaseOut > regtestSubsidy(height) + fees) throw new BlockInvalid('bad-cb-amount');
    return spent;
  }

  /** ConnectBlock's money checks for non-coinbase txs: inputs unspent (or created earlier in the block), maturity, no inflation. */
  #spendTxs(txs: readonly Transaction[], height: number, created: Map<string, Coin>): { spent: Coin[]; fees: bigint } {
    const spent: Coin[] = [];
    const spentKeys = new Set<string>();
    let fees = 0n;
    for (const tx of txs) {
      if (tx.isCoinbase) throw new BlockInvalid('bad-cb-multiple');
      let valueIn = 0n;
      for (const input of tx.inputs) {
        const key = outpointKey(input.prevTxid, input.prevVout);
        const coin = spentKeys.has(key) ? undefined : (created.get(key) ?? this.utxos.get(key));
        if (!coin) throw new BlockInvalid(`bad-txns-inputs-missingorspent ${tx.txid}`);
        if (coin.coinbase && height - coin.height < REGTEST.coinbaseMaturity) throw new BlockInvalid('bad-txns-premature-spend-of-coinbase');
        spentKeys.add(key);
        spent.push(coin);
        valueIn += coin.value;
      }
      const valueOut = tx.outputs.reduce((s, o) => s + o.value, 0n);
      if (valueIn < valueOut) throw new BlockInvalid(`bad-txns-in-belowout ${tx.txid}`);
      fees += valueIn - valueOut;
      this.#addOutputs(tx, height, created);
    }
    return { spent, fees };
  }

  #addOutputs(tx: Transaction, height: number, created: Map<string, Coin>): void {
    tx.outputs.forEach((o, vout) => {
      if (!unspendable(o.script)) created.set(outpointKey(tx.txid, vout), { txid: tx.txid, vout, value: o.value, script: o.script, height, coinbase: tx.isCoinbase });
    });
  }

  #connect(entry: BlockEntry): void {
    if (entry.parent !== this.tip) throw new Error('connect: not on the tip');
    const created = new Map<string, Coin>();
    const spent = this.#spendAll(entry.block.txs, entry.height, created);
    const spentKeys = new Set(spent.map((c) => outpointKey(c.txid, c.vout)));
    const undo: Coin[] = [];
    for (const coin of spent) {
      // An output created and spent within the block never reaches the UTXO set, nor the undo data.
      if (!this.utxos.has(outpointKey(coin.txid, coin.vout))) continue;
      this.#removeCoin(coin);
      undo.push(coin);
    }
    for (const [key, coin] of created) if (!spentKeys.has(key)) this.#addCoin(coin);
    entry.undo = undo;
    for (const tx of entry.block.txs) this.txBlock.set(tx.txid, entry.hash);
    this.active.push(entry);
  }

  #disconnectTip(): BlockEntry {
    const entry = this.active.pop()!;
    for (const tx of entry.block.txs) {
      this.txBlock.delete(tx.txid);
      tx.outputs.forEach((_o, vout) => {
        const coin = this.utxos.get(outpointKey(tx.txid, vout));
        if (coin) this.#removeCoin(coin);
      });
    }
    for (const coin of entry.undo ?? []) this.#addCoin(coin);
    entry.undo = null;
    return entry;
  }

  #addCoin(coin: Coin): void {
    this.utxos.set(outpointKey(coin.txid, coin.vout), coin);
    this.unspentCount.set(coin.txid, (this.unspentCount.get(coin.txid) ?? 0) + 1);
  }

  #removeCoin(coin: Coin): void {
    this.utxos.delete(outpointKey(coin.txid, coin.vout));
    const left = (this.unspentCount.get(coin.txid) ?? 1) - 1;
    if (left === 0) this.unspentCount.delete(coin.txid);
    else this.unspentCount.set(coin.txid, left);
  }
}
