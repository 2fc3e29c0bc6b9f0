import type { DomainEvent, NetworkId, Transaction } from '../core/index.js';
import { getNetworkParams } from '../chains/addressing.js';
import { parseTransaction } from '../chains/parsing.js';
import { fromHex, toHex } from '../chains/hash.js';

/*
 * DomainEvents as JSON text for Redis: bigint as {"$big": "…"}, bytes as {"$hex": "…"}, and a
 * Transaction as its serialized bytes ({"$tx": "…"}) parsed again on receipt, which restores
 * every derived field (txid, sizes, witness) exactly and keeps messages about as small as the tx.
 *
 * Events travel in batches ({"events": […], "shared": […]}): a tx paying 5,000 addresses makes 5,000
 * `address_touched` events that all point to one Transaction and one prevouts array. Sent one by one
 * they carried the tx 5,000 times (~1.5 GB for a 155 KB payout, past Redis's pub/sub buffer); in a
 * batch each object is written once into `shared` and referenced as {"$shared": i}, and the receiver
 * decodes it once, so its events point to one object again (the realtime router's per-tx summary
 * memo relies on that identity).
 */

/** About how many characters a batch holds before the next event starts another (see encodeEventBatches). */
export const DEFAULT_BATCH_CHARS = 1 << 20;

/** Event fields whose objects are shared between the events of one tx: sent once per batch. */
const SHARED_KEYS = new Set(['tx', 'prevouts']);

function isTransaction(value: unknown): value is Transaction {
  return typeof value === 'object' && value !== null && 'txid' in value && 'raw' in value && (value as Transaction).raw instanceof Uint8Array;
}

function encodeValue(value: unknown, refs?: (key: string, original: unknown) => unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, replaced: unknown) {
    // `this[key]` is the value before toJSON: a Buffer would otherwise arrive as {type, data}.
    const original = key === '' ? replaced : this[key];
    if (refs && SHARED_KEYS.has(key) && typeof original === 'object' && original !== null) {
      const ref = refs(key, original);
      if (ref !== undefined) return ref;
    }
    if (typeof original === 'bigint') return { $big: original.toString() };
    if (original instanceof Uint8Array) return { $hex: toHex(original) };
    if (key === 'tx' && isTransaction(original)) return { $tx: toHex(original.raw) };
    return replaced;
  });
}

function revive(_key: string, value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const tagged = value as Record<string, unknown>;
    if (typeof tagged['$big'] === 'string') return BigInt(tagged['$big']);
    if (typeof tagged['$hex'] === 'string') return fromHex(tagged['$hex']);
  }
  return value;
}

function parsedTx(value: unknown, network: NetworkId): unknown {
  const tagged = value as { $tx?: unknown } | undefined;
  if (!tagged || typeof tagged.$tx !== 'string') return value;
  // Features are per coin, the same on every chain of a network acronym.
  return parseTransaction(fromHex(tagged.$tx), { mweb: getNetworkParams(network).features.mweb });
}

function checkedEvent(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || typeof (value as Record<string, unknown>)['kind'] !== 'string') {
    throw new SyntaxError('not a domain event');
  }
  return value as Record<string, unknown>;
}

/** The single-event form earlier versions publish (the bus now sends batches); decodeEventBatch still reads it. */
export function encodeEvent(event: DomainEvent): string {
  return encodeValue(event);
}

export function decodeEvent(text: string): DomainEvent {
  const event = checkedEvent(JSON.parse(text, revive));
  if (event['tx'] !== undefined) event['tx'] = parsedTx(event['tx'], event['network'] as NetworkId);
  return event as unknown as DomainEvent;
}

/**
 * The events as one or more batch messages, in order. A batch is closed once the events' own text
 * passes `maxChars`, or once the whole batch does and the next event brings a tx not in it yet: a
 * tx larger than the bound is then still written once per `maxChars` of its events, not once per
 * event. An event is never split.
 */
export function encodeEventBatches(events: readonly DomainEvent[], maxChars = DEFAULT_BATCH_CHARS): string[] {
  const messages: string[] = [];
  let parts: string[] = [];
  let shared: string[] = [];
  let indexOf = new Map<object, number>();
  let eventChars = 0;
  let sharedChars = 0;
  const close = (): void => {
    messages.push(`{"shared":[${shared.join(',')}],"events":[${parts.join(',')}]}`);
    parts = [];
    shared = [];
    indexOf = new Map();
    eventChars = 0;
    sharedChars = 0;
  };
  const refs = (key: string, original: unknown): unknown => {
    const object = original as object;
    let index = indexOf.get(object);
    if (index === undefined) {
      index = shared.length;
      const text = key === 'tx' && isTransaction(object) ? JSON.stringify({ $tx: toHex(object.raw) }) : encodeValue(object);
      shared.push(text);
      sharedChars += text.length;
      indexOf.set(object, index);
    }
    return { $shared: index };
  };
  for (const event of events) {
    const tx = (event as { tx?: object }).tx;
    if (parts.length > 0 && eventChars + sharedChars >= maxChars && tx !== undefined && !indexOf.has(tx)) close();
    const text = encodeValue(event, refs);
    parts.push(text);
    eventChars += text.length;
    if (eventChars >= maxChars) close();
  }
  if (parts.length > 0) close();
  return messages;
}

/** A batch message's events, its shared objects decoded once each; a single event's text is accepted too. */
export function decodeEventBatch(text: string): DomainEvent[] {
  const message = JSON.parse(text, revive) as unknown;
  if (typeof message !== 'object' || message === null) throw new SyntaxError('not a domain event batch');
  const { events, shared } = message as { events?: unknown; shared?: unknown };
  if (!Array.isArray(events) || !Array.isArray(shared)) {
    // A single event: what a process of an earlier version publishes.
    return [decodeEvent(text)];
  }
  const decoded = new Map<number, unknown>();
  const resolve = (value: unknown, key: string, network: NetworkId): unknown => {
    const index = (value as { $shared?: unknown } | null)?.$shared;
    if (typeof index !== 'number') return key === 'tx' ? parsedTx(value, network) : value;
    if (!Number.isInteger(index) || index < 0 || index >= shared.length) throw new SyntaxError('shared reference out of range');
    if (!decoded.has(index)) decoded.set(index, key === 'tx' ? parsedTx(shared[index], network) : shared[index]);
    return decoded.get(index);
  };
  return events.map((value) => {
    const event = checkedEvent(value);
    for (const key of SHARED_KEYS) {
      if (event[key] !== undefined && event[key] !== null) event[key] = resolve(event[key], key, event['network'] as NetworkId);
    }
    return event as unknown as DomainEvent;
  });
}
