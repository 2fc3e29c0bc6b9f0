/**
 * 1.14's ZMQ notifiers (zmq/zmqpublishnotifier.cpp): only hashblock, hashtx, rawblock and rawtx. Each message is
 * three frames: topic, body (hashes in display order; raw bytes as served by getblock/getrawtransaction), and the
 * notifier's own little-endian uint32 counter, starting at 0 and incremented after each send. Notifiers sharing an
 * address share one PUB socket. There is no `sequence` topic and no message for a tx leaving the mempool.
 */
import { Publisher } from 'zeromq';
import type { Transaction } from '../../../src/core/domain/chain-types.js';
import type { BlockEntry } from './chain-state.js';
import type { CoreSignals } from './dogecoin-core.js';

export type ZmqTopic = 'hashblock' | 'hashtx' | 'rawblock' | 'rawtx';
export const ZMQ_TOPICS: readonly ZmqTopic[] = ['hashblock', 'hashtx', 'rawblock', 'rawtx'];

interface Notifier {
  readonly topic: ZmqTopic;
  readonly socket: Publisher;
  sequence: number;
}

/**
 * A restart rebinds the port it had: the old socket's unbind finishes on ZMQ's I/O thread, and another test's
 * freePort() probe may hold the port for a moment, so EADDRINUSE right after a halt is transient (full-suite runs saw
 * it). Retried for up to 2 s; anything else fails at once.
 */
async function bindRetrying(socket: Publisher, address: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await socket.bind(address);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== 'EADDRINUSE' || attempt >= 40) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

export class ZmqPublisher implements CoreSignals {
  readonly #notifiers: Notifier[] = [];
  readonly #sockets = new Map<string, Publisher>();
  /** Sends run one after another: a PUB socket takes one send at a time, and order matters. */
  #queue: Promise<void> = Promise.resolve();

  /** `-zmqpub<topic>=<address>` for each configured topic. */
  static async bind(endpoints: ReadonlyMap<ZmqTopic, string>): Promise<ZmqPublisher> {
    const publisher = new ZmqPublisher();
    for (const [topic, address] of endpoints) {
      let socket = publisher.#sockets.get(address);
      if (!socket) {
        socket = new Publisher({ linger: 0 });
        await bindRetrying(socket, address);
        publisher.#sockets.set(address, socket);
      }
      publisher.#notifiers.push({ topic, socket, sequence: 0 });
    }
    return publisher;
  }

  transaction(tx: Transaction): void {
    this.#publish('hashtx', Buffer.from(tx.txid, 'hex'));
    this.#publish('rawtx', tx.raw);
  }

  blockTip(entry: BlockEntry): void {
    this.#publish('hashblock', Buffer.from(entry.hash, 'hex'));
    this.#publish('rawblock', entry.block.raw);
  }

  /** Waits for queued messages, then closes every socket. */
  async close(): Promise<void> {
    await this.#queue;
    for (const socket of this.#sockets.values()) socket.close();
  }

  #publish(topic: ZmqTopic, body: Uint8Array): void {
    for (const notifier of this.#notifiers) {
      if (notifier.topic !== topic) continue;
      const sequence = Buffer.alloc(4);
      sequence.writeUInt32LE(notifier.sequence >>> 0);
      notifier.sequence++;
      const frames = [Buffer.from(topic), Buffer.from(body), sequence];
      this.#queue = this.#queue.then(() => notifier.socket.send(frames)).catch(() => undefined);
    }
  }
}
