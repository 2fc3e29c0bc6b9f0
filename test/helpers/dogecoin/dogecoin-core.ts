/**
 * The stand-in's node state machine: chain, mempool and policy, with the entry points RPC and tests drive
 * (submit a tx, mine, invalidate/reconsider, evict) and the validation-interface signals ZMQ publishes. Signal
 * semantics follow 1.14's CZMQNotificationInterface: UpdatedBlockTip skips initial block download and
 * disconnect-only tip changes; SyncTransaction fires for mempool accepts and every tx of a connected block, and,
 * in `syncOnRemoval` mode (0.14's wallet signals: txs of a disconnected block, txs a block conflicted), for those too.
 */
import type { Transaction } from '../../../src/core/domain/chain-types.js';
import type { NetworkParams } from '../../../src/chains/network-params.js';
import { acceptToMempool, Rejection } from './accept.js';
import { ChainState, type BlockEntry } from './chain-state.js';
import { Mempool } from './mempool.js';
import { assembleBlock } from './miner.js';
import { genesisBlock } from './genesis.js';
import { REGTEST, type Policy } from './regtest-rules.js';

export interface CoreSignals {
  transaction(tx: Transaction): void;
  blockTip(entry: BlockEntry): void;
}

export interface CoreOptions {
  readonly params: NetworkParams;
  readonly policy: Policy;
  /** Also signal txs leaving the chain or the mempool by a block conflict (0.14 SyncTransaction), not only accepts. */
  readonly syncOnRemoval: boolean;
  readonly now: () => number;
}

export interface MineRequest {
  readonly payTo: Uint8Array;
  /** Exactly these txs (generateblock-style test driver, consensus-checked); default: the whole mempool. */
  readonly txs?: readonly Transaction[];
  /** Default true: generatetoaddress always builds an AuxPoW block. */
  readonly auxpow?: boolean;
}

const IBD_MAX_TIP_AGE = 24 * 3600;

export class DogecoinCore {
  readonly chain: ChainState;
  readonly mempool = new Mempool();
  signals: CoreSignals | null = null;
  #ibdLatched = false;

  constructor(readonly options: CoreOptions) {
    this.chain = new ChainState(genesisBlock(options.params.chain));
  }

  get params(): NetworkParams {
    return this.options.params;
  }

  /** IsInitialBlockDownload: true while the tip is older than a day; latches to false once false. */
  isInitialBlockDownload(): boolean {
    if (this.#ibdLatched) return false;
    if (this.chain.tip.block.header.time < this.options.now() - IBD_MAX_TIP_AGE) return true;
    this.#ibdLatched = true;
    return false;
  }

  /** sendrawtransaction's ATMP call; absurdFee null = allowhighfees. */
  submit(tx: Transaction, absurdFee: bigint | null): void {
    acceptToMempool({ chain: this.chain, mempool: this.mempool, policy: this.options.policy, now: this.options.now }, tx, absurdFee);
    this.signals?.transaction(tx);
  }

  /** Mines one block on the tip and activates it; returns its hash. */
  mineOne(request: MineRequest): string {
    if (this.params.chain !== 'regtest') throw new Error('the stand-in mines on regtest only');
    const parent = this.chain.tip;
    const txs = request.txs ?? this.#mempoolInBlockOrder();
    const fees = request.txs ? this.chain.checkTxs(txs) : txs.reduce((s, tx) => s + this.mempool.entries.get(tx.txid)!.fee, 0n);
    const block = assembleBlock({ parent, txs, fees, payTo: request.payTo, time: this.options.now(), auxpow: request.auxpow ?? true });
    this.chain.add(block);
    this.#activate();
    return block.header.hash;
  }

  invalidate(entry: BlockEntry): void {
    this.chain.invalidate(entry);
    this.#activate();
  }

  reconsider(entry: BlockEntry): void {
    this.chain.reconsider(entry);
    this.#activate();
  }

  /** Drops a tx and its descendants as -mempoolexpiry or a full pool would: silently, no signal. */
  evict(txid: string): string[] {
    return this.mempool.removeWithDescendants(txid).map((e) => e.tx.txid);
  }

  #activate(): void {
    const oldTip = this.chain.tip;
    const signals = this.signals;
    const syncOnRemoval = this.options.syncOnRemoval;
    const conflicted: Transaction[] = [];
    const { connected } = this.chain.activate({
      disconnected: (entry) => {
        // DisconnectTip: back to the mempool where they still fit, orphans of the ones that do not are dropped.
        for (const tx of entry.block.txs) {
          if (tx.isCoinbase) continue;
          try {
            this.submit(tx, null);
          } catch (err) {
            if (!(err instanceof Rejection)) throw err;
            this.mempool.removeWithDescendants(tx.txid);
          }
        }
        if (syncOnRemoval) for (const tx of entry.block.txs) signals?.transaction(tx);
        this.#removeForReorg();
      },
      connected: (entry) => {
        for (const gone of this.mempool.removeForBlock(entry.block.txs).conflicted) conflicted.push(gone.tx);
        for (const tx of entry.block.txs) signals?.transaction(tx);
      },
    });
    if (syncOnRemoval) for (const tx of conflicted) signals?.transaction(tx);
    const tip = this.chain.tip;
    if (tip !== oldTip && connected.length > 0 && !this.isInitialBlockDownload()) signals?.blockTip(tip);
  }

  /** removeForReorg: txs spending coinbases that are immature again on the shorter chain leave with their descendants. */
  #removeForReorg(): void {
    const spendHeight = this.chain.tip.height + 1;
    for (const entry of [...this.mempool.entries.values()]) {
      const immature = entry.tx.inputs.some((i) => {
        const coin = this.chain.utxos.get(`${i.prevTxid}:${i.prevVout}`);
        return coin?.coinbase === true && spendHeight - coin.height < REGTEST.coinbaseMaturity;
      });
      if (immature) this.mempool.removeWithDescendants(entry.tx.txid);
    }
  }

  /** Mempool txs with every in-pool parent first (CreateNewBlock's package order, simplified). */
  #mempoolInBlockOrder(): Transaction[] {
    const done = new Set<string>();
    const out: Transaction[] = [];
    const visit = (txid: string): void => {
      if (done.has(txid)) return;
      done.add(txid);
      for (const parent of this.mempool.parents(txid)) visit(parent);
      out.push(this.mempool.entries.get(txid)!.tx);
    };
    for (const txid of this.mempool.entries.keys()) visit(txid);
    return out;
  }
}
