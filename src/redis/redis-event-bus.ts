import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { MemoryEventBus, type DomainEvent, type EventBus, type Logger } from '../core/index.js';
import { decodeEventBatch, encodeEventBatches } from './event-codec.js';

export interface RedisEventBusOptions {
  /** Pub/sub channel shared by every process of one deployment. */
  readonly channel?: string;
}

/**
 * The EventBus across processes: the indexer's process publishes, every API process receives and
 * fans out to its own websocket clients. The publishing process delivers to its own subscribers
 * at once (in-process, even while Redis is down) and skips its own messages when Redis echoes them.
 * Delivery is at most once: while Redis is unreachable events are dropped, not queued, since a
 * realtime event replayed minutes late is wrong and an unbounded queue is worse.
 */
export async function createRedisEventBus(
  url: string,
  logger: Logger,
  options: RedisEventBusOptions = {},
): Promise<EventBus & { close(): Promise<void> }> {
  const channel = options.channel ?? 'outpoint:events';
  const origin = randomBytes(8).toString('hex');
  const prefix = `${origin}\n`;
  const local = new MemoryEventBus((err) => logger.error('event handler failed', { error: err instanceof Error ? err.message : String(err) }));
  const redisOptions = { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 } as const;
  const publisher = new Redis(url, redisOptions);
  // A connection in subscriber mode can do nothing else: the subscriber has its own, and keeps its
  // offline queue so the SUBSCRIBE replayed after a reconnect is not refused.
  const subscriber = new Redis(url, { lazyConnect: true });
  let publishFailing = false;

  for (const [name, client] of [['publisher', publisher], ['subscriber', subscriber]] as const) {
    client.on('error', (err: Error) => logger.warn('redis event bus connection failed; retrying', { connection: name, error: err.message }));
  }
  subscriber.on('message', (_channel: string, message: string) => {
    if (message.startsWith(prefix)) return;
    let events: DomainEvent[];
    try {
      events = decodeEventBatch(message.slice(message.indexOf('\n') + 1));
    } catch (err) {
      logger.error('redis event bus: undecodable message dropped', { error: err instanceof Error ? err.message : String(err) });
      return;
    }
    for (const event of events) local.publish(event);
  });

  try {
    await Promise.all([publisher.connect(), subscriber.connect()]);
    await subscriber.subscribe(channel);
  } catch (err) {
    publisher.disconnect();
    subscriber.disconnect();
    throw err;
  }

  const send = (message: string): void => {
    publisher.publish(channel, prefix + message).then(
      () => {
        if (publishFailing) logger.info('redis event bus: publishing again');
        publishFailing = false;
      },
      (err: unknown) => {
        // Logged once per outage: a busy indexer would otherwise log every event.
        if (!publishFailing) logger.warn('redis event bus: events not shared while Redis is unreachable', { error: err instanceof Error ? err.message : String(err) });
        publishFailing = true;
      },
    );
  };
  // Events published in one turn of the event loop (a block's, a mempool pass's) cross Redis as
  // batches, so the events of one tx carry it once (event-codec.ts). The single publisher
  // connection keeps the batches in order.
  let pending: DomainEvent[] = [];
  const flush = (): void => {
    const events = pending;
    pending = [];
    let messages: string[];
    try {
      messages = encodeEventBatches(events);
    } catch (err) {
      // Outside any caller's stack (setImmediate): a throw here would end the process.
      logger.error('redis event bus: events not encodable, not shared', { error: err instanceof Error ? err.message : String(err) });
      return;
    }
    for (const message of messages) send(message);
  };

  return {
    publish(event: DomainEvent): void {
      local.publish(event);
      if (pending.length === 0) setImmediate(flush);
      pending.push(event);
    },
    subscribe: (handler) => local.subscribe(handler),
    async close(): Promise<void> {
      if (pending.length > 0) flush();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
