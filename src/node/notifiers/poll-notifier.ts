import type { BlockNotifier, NotifierEvents, NotifierListener } from './block-notifier.js';
import { glanceAtNode, MempoolSignalGate } from './mempool-fingerprint.js';
import type { NodeClient } from '../rpc/node-client.js';
import { NotifierListeners } from './notifier-listeners.js';

export interface PollNotifierOptions {
  /** Pause between the end of one poll and the start of the next. Default 250 ms. */
  readonly pollMs?: number;
  /**
   * A `mempool` signal at least this often even when the mempool fingerprint (size, bytes, usage, total_fee) has
   * not moved: a replacement of equal size can keep it. Default 5 s.
   */
  readonly fullMempoolEveryMs?: number;
}

/**
 * Works with any Core-compatible node. Each poll is ONE HTTP request (a batch of getbestblockhash +
 * getmempoolinfo, a few hundred bytes): `tip` when the hash changed, `mempool` when the fingerprint moved or
 * `fullMempoolEveryMs` passed since the last mempool signal. It never reads the txid list: the consumer does,
 * once per signal. Polls never overlap: the next is scheduled when the previous ends.
 */
export class PollNotifier implements BlockNotifier {
  readonly #node: NodeClient;
  readonly #pollMs: number;
  readonly #listeners = new NotifierListeners();
  readonly #gate: MempoolSignalGate;
  #tip: string | null = null;
  #timer: NodeJS.Timeout | null = null;
  #inFlight: Promise<void> | null = null;
  #running = false;

  constructor(node: NodeClient, options: PollNotifierOptions = {}) {
    this.#node = node;
    this.#pollMs = options.pollMs ?? 250;
    this.#gate = new MempoolSignalGate(options.fullMempoolEveryMs ?? 5_000);
  }

  get tip(): string | null {
    return this.#tip;
  }

  on<E extends keyof NotifierEvents>(event: E, listener: NotifierListener<E>): () => void {
    return this.#listeners.on(event, listener);
  }

  async start(): Promise<void> {
    if (this.#running) return;
    const { tip, fingerprint } = await glanceAtNode(this.#node);
    this.#tip = tip;
    this.#gate.reset(fingerprint, Date.now());
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
      const { tip, fingerprint } = await glanceAtNode(this.#node);
      if (!this.#running) return;
      if (tip !== this.#tip) {
        this.#tip = tip;
        this.#listeners.emit('tip', { hash: tip });
      }
      if (this.#gate.due(fingerprint, Date.now())) this.#listeners.emit('mempool', undefined);
    } catch (err) {
      this.#listeners.emit('error', err instanceof Error ? err : new Error(String(err)));
    }
  }
}
