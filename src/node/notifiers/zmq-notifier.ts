import { Subscriber } from 'zeromq';
import { RpcError } from '../../core/domain/errors.js';
import type { BlockNotifier, NotifierEvents, NotifierListener } from './block-notifier.js';
import { glanceAtNode, MempoolSignalGate } from './mempool-fingerprint.js';
import type { NodeClient } from '../rpc/node-client.js';
import { NotifierListeners } from './notifier-listeners.js';

export interface ZmqEndpoints {
  /** `-zmqpubsequence` (Core 0.21+): block connect/disconnect and mempool add/remove, in order. Preferred. */
  readonly sequence?: string;
  /** `-zmqpubhashblock`: new tips when the node has no `sequence` topic (Dogecoin Core 1.14). */
  readonly hashblock?: string;
  /** `-zmqpubhashtx`: mempool additions (and a block's txs) when there is no `sequence` topic. */
  readonly hashtx?: string;
}

export interface ZmqNotifierOptions extends ZmqEndpoints {
  /**
   * ZMQ drops messages silently (high-water mark, publisher restart), and without `sequence` it never reports a tx
   * leaving the mempool (replacement, eviction, expiry), a disconnect-only tip change or a tip moved during
   * initial block download. Every this many ms the notifier glances at the node: one request (getbestblockhash +
   * getmempoolinfo), `tip` when the hash differs from the last seen. With `sequence` it signals `mempool` too, always
   * (default 10 s: a safety net for lost messages, cheap since the consumer diffs). Without, `mempool` only when the
   * mempool fingerprint moved since the last glance or `fullMempoolEveryMs` passed since the last mempool signal;
   * default 1 s. 0 = never.
   */
  readonly reconcileMs?: number;
  /** Without `sequence`: a `mempool` signal at least this often even when the fingerprint agrees. Default 10 s. */
  readonly fullMempoolEveryMs?: number;
  /** How long start() waits for the ZMTP handshake before carrying on (ZMQ keeps reconnecting). Default 2 s. */
  readonly handshakeTimeoutMs?: number;
}

/**
 * Asks the node where it publishes (`getzmqnotifications`, Core 0.17+); null when the node has no such call
 * (Dogecoin Core 1.14: -32601), where the topics must come from the configuration.
 */
export async function zmqEndpointsFromNode(node: NodeClient): Promise<ZmqEndpoints | null> {
  let list: Array<{ type: string; address: string }>;
  try {
    list = await node.rpc.call<Array<{ type: string; address: string }>>('getzmqnotifications');
  } catch (err) {
    if (err instanceof RpcError && err.rpcCode === RPC_METHOD_NOT_FOUND) return null;
    throw err;
  }
  const find = (type: string): string | undefined => list.find((n) => n.type === type)?.address;
  return { sequence: find('pubsequence'), hashblock: find('pubhashblock'), hashtx: find('pubhashtx') };
}

const RPC_METHOD_NOT_FOUND = -32601;

/**
 * Push signals from a node's ZMQ publisher. With `sequence`: 'A'/'R' (a tx entered or left the mempool) are
 * announced with their txid (`announce`), 'C' (block connected) a tip check (getbestblockhash, `tip` when it moved), 'D' (disconnected) a glance
 * at the node that signals both. Without it (Dogecoin Core 1.14: hashblock/hashtx only), hashblock checks the tip
 * and hashtx signals `mempool` (also for a block's txs: the consumer's pass coalesces them), and the reconcile poll (see
 * ZmqNotifierOptions.reconcileMs) finds what ZMQ never says. Anything suspicious (a gap in a topic's message
 * counter, a reconnect) glances at the node and signals `mempool`: the consumer then diffs the whole list, since
 * announcements may have been lost. No txid set is kept here.
 * Messages and glances are handled one at a time, in arrival order.
 */
export class ZmqNotifier implements BlockNotifier {
  readonly #node: NodeClient;
  readonly #options: ZmqNotifierOptions;
  readonly #listeners = new NotifierListeners();
  readonly #topics: string[];
  readonly #gate: MempoolSignalGate;
  #tip: string | null = null;
  #socket: Subscriber | null = null;
  #loop: Promise<void> | null = null;
  #queue: Promise<void> = Promise.resolve();
  #reconcileTimer: NodeJS.Timeout | null = null;
  #lastSeq = new Map<string, number>();
  #handshakes = 0;
  #reconciling = false;

  constructor(node: NodeClient, options: ZmqNotifierOptions) {
    this.#node = node;
    this.#options = options;
    this.#topics = options.sequence ? ['sequence'] : [options.hashblock ? 'hashblock' : '', options.hashtx ? 'hashtx' : ''].filter(Boolean);
    if (this.#topics.length === 0) throw new RangeError('ZmqNotifier needs a sequence, hashblock or hashtx endpoint');
    this.#gate = new MempoolSignalGate(options.fullMempoolEveryMs ?? 10_000);
  }

  get tip(): string | null {
    return this.#tip;
  }

  on<E extends keyof NotifierEvents>(event: E, listener: NotifierListener<E>): () => void {
    return this.#listeners.on(event, listener);
  }

  async start(): Promise<void> {
    if (this.#socket) return;
    const socket = new Subscriber();
    this.#socket = socket;
    const handshake = new Promise<void>((resolve) => {
      socket.events.on('handshake', () => {
        // every handshake after the first is a reconnect: messages may have been lost meanwhile
        // (#enqueue never rejects: task errors become 'error' events)
        if (this.#handshakes++ > 0) void this.#enqueue(() => this.#reconcile(true));
        resolve();
      });
    });
    const endpoints = new Set([this.#options.sequence, this.#options.hashblock, this.#options.hashtx].filter((e): e is string => !!e));
    for (const endpoint of endpoints) socket.connect(endpoint);
    socket.subscribe(...this.#topics);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([handshake, new Promise<void>((resolve) => (timer = setTimeout(resolve, this.#options.handshakeTimeoutMs ?? 2_000)))]);
    clearTimeout(timer);
    // Baseline after subscribing: whatever is published from here on is queued in the socket.
    const { tip, fingerprint } = await glanceAtNode(this.#node);
    this.#tip = tip;
    this.#gate.reset(fingerprint, Date.now());
    this.#loop = this.#receiveLoop(socket);
    const every = this.#options.reconcileMs ?? (this.#options.sequence ? 10_000 : 1_000);
    if (every > 0) {
      this.#reconcileTimer = setInterval(() => {
        if (this.#reconciling) return; // a slow node: never pile up reconciles
        this.#reconciling = true;
        void this.#enqueue(() => this.#reconcile(!!this.#options.sequence)).finally(() => {
          this.#reconciling = false;
        });
      }, every);
    }
  }

  async stop(): Promise<void> {
    const socket = this.#socket;
    if (!socket) return;
    this.#socket = null;
    if (this.#reconcileTimer) clearInterval(this.#reconcileTimer);
    this.#reconcileTimer = null;
    socket.close();
    await this.#loop;
    await this.#queue;
  }

  async #receiveLoop(socket: Subscriber): Promise<void> {
    try {
      for await (const frames of socket) {
        await this.#enqueue(() => this.#handle(frames));
      }
    } catch (err) {
      if (this.#socket === socket) this.#emitError(err);
    }
  }

  /** Serialises message handling and glances at the node; tasks never reject. */
  #enqueue(task: () => Promise<void>): Promise<void> {
    this.#queue = this.#queue.then(async () => {
      if (!this.#socket) return; // stopped: no signal after stop() (a late handshake, a queued message)
      try {
        await task();
      } catch (err) {
        this.#emitError(err);
      }
    });
    return this.#queue;
  }

  async #handle(frames: Buffer[]): Promise<void> {
    const [topicFrame, body, seqFrame] = frames;
    if (!topicFrame || !body) return;
    const topic = topicFrame.toString('latin1');
    if (this.#checkSequence(topic, seqFrame)) return this.#reconcile(true);
    if (topic === 'sequence') {
      const label = String.fromCharCode(body[32] ?? 0);
      if ((label === 'A' || label === 'R') && body.length >= 33) return this.#announce(body, label === 'A');
      if (label === 'C') return this.#checkTip(); // the txs it confirmed leave the mempool without 'R': `tip` says so
      return this.#reconcile(true); // 'D': the txs of the disconnected block may return to the mempool
    }
    if (topic === 'hashblock') return this.#checkTip();
    if (topic === 'hashtx') return this.#signalMempool();
  }

  /** True when messages of this topic were lost (each topic's 3rd frame counts up from 0). */
  #checkSequence(topic: string, seqFrame: Buffer | undefined): boolean {
    if (!seqFrame || seqFrame.length !== 4) return false;
    const seq = seqFrame.readUInt32LE(0);
    const last = this.#lastSeq.get(topic);
    this.#lastSeq.set(topic, seq);
    return last !== undefined && seq !== ((last + 1) >>> 0);
  }

  /**
   * A block message names a block, which need not be the tip any more: messages published before start()'s glance
   * still arrive after it, and a 'D' names the block that left. So the tip comes from the node (one small call).
   */
  async #checkTip(): Promise<void> {
    this.#signalTip(await this.#node.getBestBlockHash());
  }

  #signalTip(hash: string): void {
    if (hash === this.#tip) return;
    this.#tip = hash;
    this.#listeners.emit('tip', { hash });
  }

  /**
   * 'A'/'R': the txid (32 bytes, in the order txids are written: Core reverses the hash for this topic) entered or
   * left the mempool. The 8-byte mempool sequence number after the label is not needed: message loss is found by the
   * topic's own counter (#checkSequence), and removals by a block have no 'R' (the tip says they left).
   */
  #announce(body: Buffer, entered: boolean): void {
    this.#gate.signalled(Date.now());
    this.#listeners.emit('announce', { txid: body.toString('hex', 0, 32), entered });
  }

  #signalMempool(): void {
    this.#gate.signalled(Date.now());
    this.#listeners.emit('mempool', undefined);
  }

  /**
   * One glance at the node (getbestblockhash + getmempoolinfo): `tip` when the hash differs from the last seen,
   * `mempool` when forced (a message may have been lost) or the fingerprint says so (see MempoolSignalGate).
   */
  async #reconcile(forceMempool: boolean): Promise<void> {
    // Forced (a gap, a reconnect, the safety net): said before the glance, which can fail (a node that has just
    // restarted answers RPC only once warmed up) while what was missed must still be read.
    if (forceMempool) this.#signalMempool();
    const { tip, fingerprint } = await glanceAtNode(this.#node);
    this.#signalTip(tip);
    if (!forceMempool && this.#gate.due(fingerprint, Date.now())) this.#signalMempool();
  }

  #emitError(err: unknown): void {
    this.#listeners.emit('error', err instanceof Error ? err : new Error(String(err)));
  }
}
