import { Subscriber } from 'zeromq';
import { RpcError } from '../core/errors.js';
import type { BlockNotifier, NotifierEvents, NotifierListener } from './block-notifier.js';
import { diffMempool } from './mempool-diff.js';
import type { NodeClient } from './node-client.js';
import { NotifierListeners } from './notifier-listeners.js';

export interface ZmqEndpoints {
  /** `-zmqpubsequence` (Core 0.21+): block connect/disconnect and mempool add/remove, in order. Preferred. */
  readonly sequence?: string;
  /** `-zmqpubhashblock`: new tips when the node has no `sequence` topic (Dogecoin Core 1.14). */
  readonly hashblock?: string;
  /** `-zmqpubhashtx`: mempool additions when there is no `sequence` topic. */
  readonly hashtx?: string;
}

export interface ZmqNotifierOptions extends ZmqEndpoints {
  /**
   * ZMQ drops messages silently (high-water mark, publisher restart), and without `sequence` it never reports a tx
   * leaving the mempool (replacement, eviction, expiry), a disconnect-only tip change or a tip moved during
   * initial block download. Every this many ms the notifier asks over RPC. With `sequence`: a full resync (tip and
   * txid list), default 10 s. Without: one cheap request (getbestblockhash + getmempoolinfo), and the txid list
   * only when the tip or the mempool size disagrees with what ZMQ said, or `fullMempoolEveryMs` passed; default 1 s.
   * 0 = never.
   */
  readonly reconcileMs?: number;
  /** Without `sequence`: the txid list is compared at least this often even when the sizes agree. Default 10 s. */
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

const RPC_INVALID_ADDRESS_OR_KEY = -5;
const RPC_METHOD_NOT_FOUND = -32601;

/**
 * Push notifications from a node's ZMQ publisher. With `sequence`, mempool changes are applied
 * from the messages themselves; block events (and anything suspicious: a gap in a topic's
 * message counter, a reconnect) trigger a resync that diffs tip and mempool over RPC. Without it
 * (Dogecoin Core 1.14: hashblock/hashtx only), hashblock triggers the resync, hashtx a check of that
 * one tx, and the reconcile poll (see ZmqNotifierOptions.reconcileMs) finds what ZMQ never says.
 * Messages are handled one at a time in arrival order, which makes the resync race-free: a message
 * that predates the RPC snapshot only repeats what the snapshot already applied.
 */
export class ZmqNotifier implements BlockNotifier {
  readonly #node: NodeClient;
  readonly #options: ZmqNotifierOptions;
  readonly #listeners = new NotifierListeners();
  readonly #topics: string[];
  #tip: string | null = null;
  #mempool = new Set<string>();
  #socket: Subscriber | null = null;
  #loop: Promise<void> | null = null;
  #queue: Promise<void> = Promise.resolve();
  #reconcileTimer: NodeJS.Timeout | null = null;
  #lastSeq = new Map<string, number>();
  #handshakes = 0;
  #lastFullAt = 0;
  #reconciling = false;

  constructor(node: NodeClient, options: ZmqNotifierOptions) {
    this.#node = node;
    this.#options = options;
    this.#topics = options.sequence ? ['sequence'] : [options.hashblock ? 'hashblock' : '', options.hashtx ? 'hashtx' : ''].filter(Boolean);
    if (this.#topics.length === 0) throw new RangeError('ZmqNotifier needs a sequence, hashblock or hashtx endpoint');
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
    if (this.#socket) return;
    const socket = new Subscriber();
    this.#socket = socket;
    const handshake = new Promise<void>((resolve) => {
      socket.events.on('handshake', () => {
        // every handshake after the first is a reconnect: messages may have been lost meanwhile
        // (#enqueue never rejects: task errors become 'error' events)
        if (this.#handshakes++ > 0) void this.#enqueue(() => this.#resync());
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
    const [tip, mempool] = await Promise.all([this.#node.getBestBlockHash(), this.#node.getRawMempool()]);
    this.#tip = tip;
    this.#mempool = new Set(mempool);
    this.#lastFullAt = Date.now();
    this.#loop = this.#receiveLoop(socket);
    const every = this.#options.reconcileMs ?? (this.#options.sequence ? 10_000 : 1_000);
    if (every > 0) {
      this.#reconcileTimer = setInterval(() => {
        if (this.#reconciling) return; // a slow node: never pile up reconciles
        this.#reconciling = true;
        void this.#enqueue(() => (this.#options.sequence ? this.#resync() : this.#reconcile())).finally(() => {
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

  /** Serialises message handling, resyncs and reconciles; tasks never reject. */
  #enqueue(task: () => Promise<void>): Promise<void> {
    this.#queue = this.#queue.then(async () => {
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
    const gap = this.#checkSequence(topic, seqFrame);
    // hashes are published in display (RPC) byte order
    const hash = body.subarray(0, 32).toString('hex');
    if (gap) return this.#resync();
    if (topic === 'sequence') {
      const label = String.fromCharCode(body[32] ?? 0);
      if (label === 'A') return this.#applyMempool([hash], []);
      if (label === 'R') return this.#applyMempool([], [hash]);
      return this.#resync(); // 'C' block connected (its txs left the mempool without 'R'), 'D' disconnected
    }
    if (topic === 'hashblock') return this.#resync();
    if (topic === 'hashtx' && !this.#mempool.has(hash)) {
      // hashtx also fires for every tx of a connected block (and, on some 1.14 builds, for txs a block disconnected
      // or conflicted): keep only those really in the mempool. A known txid needs no look: the hashblock that
      // follows its block resyncs, and a conflict or replacement shows in the reconcile poll's sizes.
      try {
        await this.#node.rpc.call('getmempoolentry', [hash]);
        this.#applyMempool([hash], []);
      } catch (err) {
        if (!(err instanceof RpcError && err.rpcCode === RPC_INVALID_ADDRESS_OR_KEY)) throw err;
      }
    }
  }

  /** True when messages of this topic were lost (each topic's 3rd frame counts up from 0). */
  #checkSequence(topic: string, seqFrame: Buffer | undefined): boolean {
    if (!seqFrame || seqFrame.length !== 4) return false;
    const seq = seqFrame.readUInt32LE(0);
    const last = this.#lastSeq.get(topic);
    this.#lastSeq.set(topic, seq);
    return last !== undefined && seq !== ((last + 1) >>> 0);
  }

  #applyMempool(added: string[], removed: string[]): void {
    const reallyAdded = added.filter((txid) => !this.#mempool.has(txid));
    const reallyRemoved = removed.filter((txid) => this.#mempool.has(txid));
    for (const txid of reallyAdded) this.#mempool.add(txid);
    for (const txid of reallyRemoved) this.#mempool.delete(txid);
    if (reallyAdded.length > 0 || reallyRemoved.length > 0) {
      this.#listeners.emit('mempool', { added: reallyAdded, removed: reallyRemoved });
    }
  }

  /** Without `sequence`: resync only when the node's tip or mempool size disagrees, or the periodic full diff is due. */
  async #reconcile(): Promise<void> {
    const [tip, info] = await this.#node.rpc.batch<unknown>([{ method: 'getbestblockhash' }, { method: 'getmempoolinfo' }]);
    if (tip instanceof RpcError) throw tip;
    if (info instanceof RpcError) throw info;
    const size = (info as { size?: unknown }).size;
    const due = Date.now() - this.#lastFullAt >= (this.#options.fullMempoolEveryMs ?? 10_000);
    if (tip !== this.#tip || size !== this.#mempool.size || due) await this.#resync();
  }

  async #resync(): Promise<void> {
    this.#lastFullAt = Date.now();
    const [tip, mempool] = await this.#node.rpc.batch<unknown>([{ method: 'getbestblockhash' }, { method: 'getrawmempool' }]);
    if (tip instanceof RpcError) throw tip;
    if (mempool instanceof RpcError) throw mempool;
    if (tip !== this.#tip) {
      this.#tip = tip as string;
      this.#listeners.emit('tip', { hash: this.#tip });
    }
    const { added, removed, next } = diffMempool(this.#mempool, mempool as string[]);
    this.#mempool = next;
    if (added.length > 0 || removed.length > 0) this.#listeners.emit('mempool', { added, removed });
  }

  #emitError(err: unknown): void {
    this.#listeners.emit('error', err instanceof Error ? err : new Error(String(err)));
  }
}
