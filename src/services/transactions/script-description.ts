import type { NetworkParams } from '../../chains/network-params.js';
import { classifyScript, displayAddress, type ScriptType } from '../../chains/addressing.js';

/** What an output script is and whom it pays, as users see it. */
export interface ScriptDescription {
  readonly type: ScriptType;
  /** null when the script has no address (multisig, OP_RETURN, non-standard). */
  readonly address: string | null;
}

/**
 * Encoding an address (checksum hashing, base58/bech32) is a tenth of a transaction answer's CPU, and the same
 * scripts come back again and again (busy addresses, change): remember recent descriptions, per network.
 * A Map keeps insertion order, so dropping the oldest entry keeps the cache bounded.
 */
const CACHE_LIMIT = 50_000;
const caches = new WeakMap<NetworkParams, Map<string, ScriptDescription>>();

/** P2PK outputs are shown with the P2PKH address of their key, as explorers do (Core gives them none). */
export function describeScript(params: NetworkParams, script: Uint8Array): ScriptDescription {
  let cache = caches.get(params);
  if (!cache) caches.set(params, (cache = new Map()));
  const key = Buffer.from(script.buffer, script.byteOffset, script.byteLength).toString('latin1');
  const known = cache.get(key);
  if (known) return known;
  const description = describeUncached(params, script);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, description);
  return description;
}

function describeUncached(params: NetworkParams, script: Uint8Array): ScriptDescription {
  return { type: classifyScript(script, params.features), address: displayAddress(params, script) };
}
