import { RpcError } from '../../core/domain/errors.js';
import type { NodeClient } from '../rpc/node-client.js';

/** The node's best block and a fingerprint of its mempool, read in one HTTP request (a few hundred bytes). */
export interface NodeGlance {
  readonly tip: string;
  /** size/bytes/usage/total_fee of `getmempoolinfo` (Dogecoin Core 1.14 has no total_fee: "undefined"). */
  readonly fingerprint: string;
}

/** One batch of getbestblockhash + getmempoolinfo; an error in either item throws. */
export async function glanceAtNode(node: NodeClient): Promise<NodeGlance> {
  const [best, info] = await node.rpc.batch<unknown>([{ method: 'getbestblockhash' }, { method: 'getmempoolinfo' }], { exactDecimals: true });
  if (best instanceof RpcError) throw best;
  if (info instanceof RpcError) throw info;
  const i = info as Record<string, unknown>;
  return { tip: best as string, fingerprint: `${String(i.size)}/${String(i.bytes)}/${String(i.usage)}/${String(i.total_fee)}` };
}

/**
 * When a glance should signal `mempool`: the fingerprint moved since the last glance, or `everyMs` passed since the
 * last mempool signal (a replacement of equal size and fee can keep the fingerprint; the consumer's diff finds it).
 */
export class MempoolSignalGate {
  #fingerprint: string | null = null;
  #lastSignalAt = 0;

  constructor(private readonly everyMs: number) {}

  /** The baseline: no signal for it. */
  reset(fingerprint: string, now: number): void {
    this.#fingerprint = fingerprint;
    this.#lastSignalAt = now;
  }

  /** A mempool signal was sent for another reason (a ZMQ message): the periodic one restarts from now. */
  signalled(now: number): void {
    this.#lastSignalAt = now;
  }

  /** True when a signal is due; records the fingerprint, and the signal when there is one. */
  due(fingerprint: string, now: number): boolean {
    const due = fingerprint !== this.#fingerprint || now - this.#lastSignalAt >= this.everyMs;
    this.#fingerprint = fingerprint;
    if (due) this.#lastSignalAt = now;
    return due;
  }
}
