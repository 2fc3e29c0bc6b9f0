import type { DomainEvent, NetworkId, Transaction } from '../core/index.js';
import { getNetworkParams } from '../chains/addressing.js';
import { parseTransaction } from '../chains/parsing.js';
import { fromHex, toHex } from '../chains/hash.js';

/*
 * DomainEvents as JSON text for Redis: bigint as {"$big": "…"}, bytes as {"$hex": "…"}, and a
 * Transaction as its serialized bytes ({"$tx": "…"}) parsed again on receipt, which restores
 * every derived field (txid, sizes, witness) exactly and keeps messages about as small as the tx.
 */

function isTransaction(value: unknown): value is Transaction {
  return typeof value === 'object' && value !== null && 'txid' in value && 'raw' in value && (value as Transaction).raw instanceof Uint8Array;
}

export function encodeEvent(event: DomainEvent): string {
  return JSON.stringify(event, function (this: Record<string, unknown>, key: string, value: unknown) {
    // `this[key]` is the value before toJSON: a Buffer would otherwise arrive as {type, data}.
    const original = key === '' ? value : this[key];
    if (typeof original === 'bigint') return { $big: original.toString() };
    if (original instanceof Uint8Array) return { $hex: toHex(original) };
    if (key === 'tx' && isTransaction(original)) return { $tx: toHex(original.raw) };
    return value;
  });
}

export function decodeEvent(text: string): DomainEvent {
  const event = JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const tagged = value as Record<string, unknown>;
      if (typeof tagged['$big'] === 'string') return BigInt(tagged['$big']);
      if (typeof tagged['$hex'] === 'string') return fromHex(tagged['$hex']);
    }
    return value;
  }) as Record<string, unknown>;
  if (typeof event['kind'] !== 'string') throw new SyntaxError('not a domain event');
  const tx = event['tx'] as { $tx?: unknown } | undefined;
  if (tx && typeof tx.$tx === 'string') {
    const network = event['network'] as NetworkId;
    // Features are per coin, the same on every chain of a network acronym.
    event['tx'] = parseTransaction(fromHex(tx.$tx), { mweb: getNetworkParams(network).features.mweb });
  }
  return event as unknown as DomainEvent;
}
