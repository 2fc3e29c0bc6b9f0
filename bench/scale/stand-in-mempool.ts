/**
 * The stand-in node's mempool: txs made by MempoolTxMaker on the outputs unspent at the revealed tip, kept in arrival
 * order, answered as bitcoind does (getrawmempool both forms with Core 27's entry fields, getmempoolinfo,
 * getmempoolentry, getrawtransaction of a mempool tx). It only grows: a block revealed later does not remove the txs
 * it would have mined (the generated blocks know nothing of them), so a run adds txs on a fixed tip.
 */
import { scriptToAddress } from '../../src/chains/addressing.js';
import type { ChainFiles } from './block-files.js';
import { params } from './chain-params.js';
import { MempoolTxMaker, tipUnspent, type MadeTx } from './mempool-txs.js';
import { coins, json, RPC_INVALID_ADDRESS_OR_KEY, RPC_INVALID_PARAMETER, RpcFailure, type Result } from './stand-in-rpc.js';

/** Blocks below the tip whose unspent outputs the mempool spends (2,000-tx blocks: ~150k outputs to draw from). */
const TIP_BLOCKS = 40;

interface Entry {
  readonly made: MadeTx;
  /** Unix seconds, as Core's `time`. */
  readonly time: number;
  readonly height: number;
  readonly parents: readonly string[];
  readonly ancestors: ReadonlySet<string>;
  readonly ancestorSize: number;
  readonly ancestorFee: number;
  readonly children: string[];
  descendantCount: number;
  descendantSize: number;
  descendantFee: number;
}

export interface MempoolOptions {
  readonly chain: ChainFiles;
  /** Addresses every tx pays one of (round robin). */
  readonly watched?: number;
  readonly seed?: number;
}

export class StandInMempool {
  private readonly entries = new Map<string, Entry>();
  private maker: Promise<MempoolTxMaker> | null = null;
  private bytes = 0;
  private totalFee = 0;

  constructor(private readonly options: MempoolOptions) {}

  get size(): number {
    return this.entries.size;
  }

  /** The watched addresses (the maker is set up on the tip `height` the first time). */
  async watched(height: number): Promise<string[]> {
    const maker = await this.makerAt(height);
    return maker.watched.map((script) => scriptToAddress(params, script)!);
  }

  /** Adds `count` txs; returns their txids and when they were added (ms since the epoch, fractional). */
  async add(count: number, height: number): Promise<{ at: number; txids: string[] }> {
    const maker = await this.makerAt(height);
    const txids: string[] = [];
    for (let i = 0; i < count; i++) {
      const made = maker.make();
      const parents = [...new Set(made.tx.inputs.map((input) => input.prevTxid).filter((txid) => this.entries.has(txid)))];
      const ancestors = new Set<string>(parents);
      for (const parent of parents) for (const a of this.entries.get(parent)!.ancestors) ancestors.add(a);
      let ancestorSize = made.tx.vsize;
      let ancestorFee = made.fee;
      for (const a of ancestors) {
        const up = this.entries.get(a)!;
        ancestorSize += up.made.tx.vsize;
        ancestorFee += up.made.fee;
        up.descendantCount++;
        up.descendantSize += made.tx.vsize;
        up.descendantFee += made.fee;
      }
      for (const parent of parents) this.entries.get(parent)!.children.push(made.tx.txid);
      this.entries.set(made.tx.txid, {
        made, time: Math.floor(Date.now() / 1000), height, parents, ancestors, ancestorSize, ancestorFee, children: [],
        descendantCount: 1, descendantSize: made.tx.vsize, descendantFee: made.fee,
      });
      this.bytes += made.tx.vsize;
      this.totalFee += made.fee;
      txids.push(made.tx.txid);
    }
    return { at: performance.timeOrigin + performance.now(), txids };
  }

  /** The mempool's replies; undefined for methods it does not answer (and getrawtransaction of a block's tx). */
  call(method: string, args: readonly unknown[]): Result | undefined {
    switch (method) {
      case 'getrawmempool':
        if (args[0] === true) return { json: `{${[...this.entries].map(([txid, e]) => `"${txid}":${entryJson(e)}`).join(',')}}` };
        return json([...this.entries.keys()]);
      case 'getmempoolinfo':
        // Core's usage is its allocator's view; a fixed multiple of the bytes moves as it does.
        return {
          json: `{"loaded":true,"size":${this.entries.size},"bytes":${this.bytes},"usage":${this.bytes * 3 + this.entries.size * 400},` +
            `"total_fee":${coins(this.totalFee)},"maxmempool":300000000,"mempoolminfee":0.00001000,"minrelaytxfee":0.00001000,` +
            '"incrementalrelayfee":0.00001000,"unbroadcastcount":0,"fullrbf":false}',
        };
      case 'getmempoolentry': {
        const entry = typeof args[0] === 'string' ? this.entries.get(args[0]) : undefined;
        if (!entry) throw new RpcFailure(RPC_INVALID_ADDRESS_OR_KEY, 'Transaction not in mempool');
        return { json: entryJson(entry) };
      }
      case 'getrawtransaction': {
        if (args[2] !== undefined && args[2] !== null) return undefined;
        const entry = typeof args[0] === 'string' ? this.entries.get(args[0]) : undefined;
        if (!entry) return undefined;
        if (args[1] !== undefined && args[1] !== false && args[1] !== 0) throw new RpcFailure(RPC_INVALID_PARAMETER, 'the stand-in node serves raw transactions only');
        return { hex: Buffer.from(entry.made.raw) };
      }
      default:
        return undefined;
    }
  }

  /** Set up once, on the tip of the first call (a promise, so calls that overlap share one). */
  private makerAt(height: number): Promise<MempoolTxMaker> {
    this.maker ??= tipUnspent(this.options.chain, height, TIP_BLOCKS).then((pool) => new MempoolTxMaker(pool, this.options.watched ?? 64, this.options.seed ?? 1));
    return this.maker;
  }
}

/** Core 27's mempool entry (getrawmempool true, getmempoolentry), amounts as literal decimals. */
function entryJson(e: Entry): string {
  const tx = e.made.tx;
  return `{"vsize":${tx.vsize},"weight":${tx.weight},"time":${e.time},"height":${e.height},` +
    `"descendantcount":${e.descendantCount},"descendantsize":${e.descendantSize},` +
    `"ancestorcount":${e.ancestors.size + 1},"ancestorsize":${e.ancestorSize},"wtxid":"${tx.wtxid}",` +
    `"fees":{"base":${coins(e.made.fee)},"modified":${coins(e.made.fee)},"ancestor":${coins(e.ancestorFee)},"descendant":${coins(e.descendantFee)}},` +
    `"depends":${JSON.stringify(e.parents)},"spentby":${JSON.stringify(e.children)},"bip125-replaceable":true,"unbroadcast":false}`;
}
