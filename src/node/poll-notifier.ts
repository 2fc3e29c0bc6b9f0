import { RpcError } from '../core/errors.js';
import type { BlockNotifier, NotifierEvents, NotifierListener } from './block-notifier.js';
import { diffMempool } from './mempool-diff.js';
import type { NodeClient } from './node-client.js';
import { NotifierListeners } from './notifier-listeners.js';

export interface PollNotifierOptions {
  /** Pause between the end of one poll and the start of the next. Default 250 ms. */
  readonly pollMs?: number;
  /**
   * Full `getrawmempool` diff at least this often even when the mempool fingerprint
   * (size, bytes, usage, total_fee) has not moved: a replacement of equal size can keep it. Default 5 s.
   */
  readonly fullMempoolEveryMs?: number;
}

/**
 * Works with any Core-compatible node. Each poll is ONE HTTP request (a batch of
 * getbestblockhash + getmempoolinfo); the txid list is fetched only when the tip or the
 * mempool fingerprint changed, so an idle node costs a few hundred bytes per poll, not a
 * mempool-sized JSON. Polls never overlap: the next is scheduled when the previous ends.
 */
export class PollNotifier implements BlockNotifier {
  readonly #node: NodeClient;
  readonly #pollMs: number;
  readonly #fullEveryMs: number;
  readonly #listeners = new NotifierListeners();
  #tip: string | null = null;
  #mempool = new Set<string>();
  #fingerprint = '';
  #lastFullAt = 0;
  #timer: NodeJS.Timeout | null = null;
  #inFlight: Promise<void> | null = null;
  #running = false;

  constructor(node: NodeClient, options: PollNotifierOptions = {}) {
    this.#node = node;
    this.#pollMs = options.pollMs ?? 250;
    this.#fullEveryMs = options.fullMempoolEveryMs ?? 5_000;
  }

  get tip(): string | null {
    return this.#tip;
  }

  get mempool(): ReadonlySet<string> {
    return this.#mempool;
  }

  on<E extends keyof NotifierEvents>(event: E, listener: NotifierListener<E>): () => void {
    return this.#listeners.on(event, listener);
  }

  async start(): Promise<void> {
    if (this.#running) return;
    const [tip, mempool] = await Promise.all([this.#node.getBestBlockHash(), this.#node.getRawMempool()]);
    this.#tip = tip;
    this.#mempool = new Set(mempool);
    this.#lastFullAt = Date.now();
    this.#running = true;
    this.#schedule();
  }

  async stop(): Promise<void> {
    this.#running = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#inFlight;
  }

  #schedule(): void {
    if (!this.#running) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#inFlight = this.#poll().finally(() => {
        this.#inFlight = null;
        this.#schedule();
      });
    }, this.#pollMs);
  }

  /** Never rejects: failures become `error` events and the next poll tries again. */
  async #poll(): Promise<void> {
    try {
      const [best, info] = await this.#node.rpc.batch<unknown>(
        [{ method: 'getbestblockhash' }, { method: 'getmempoolinfo' }],
        { exactDecimals: true },
      );
      if (best instanceof RpcError) throw best;
      if (info instanceof RpcError) throw info;
      const tipChanged = best !== this.#tip;
      if (tipChanged) {
        this.#tip = best as string;
        this.#listeners.emit('tip', { hash: this.#tip });
      }
      const i = info as Record<string, unknown>;
      const fingerprint = `${String(i.size)}/${String(i.bytes)}/${String(i.usage)}/${String(i.total_fee)}`;
      const now = Date.now();
      if (!tipChanged && fingerprint === this.#fingerprint && now - this.#lastFullAt < this.#fullEveryMs) return;
      if (!this.#running) return;
      const { added, removed, next } = diffMempool(this.#mempool, await this.#node.getRawMempool());
      // only after a successful diff, so a failed fetch is retried on the next poll
      this.#fingerprint = fingerprint;
      this.#lastFullAt = now;
      this.#mempool = next;
      if (added.length > 0 || removed.length > 0) this.#listeners.emit('mempool', { added, removed });
    } catch (err) {
      this.#listeners.emit('error', err instanceof Error ? err : new Error(String(err)));
    }
  }
}
