import type { NetworkParams } from '../../chains/network-params.js';
import { classifyScript, displayAddress, type ScriptType } from '../../chains/addressing.js';
import { CappedMap } from '../shared/capped-map.js';

/** What an output script is and whom it pays, as users see it. */
export interface ScriptDescription {
  readonly type: ScriptType;
  /** null when the script has no address (multisig, OP_RETURN, non-standard). */
  readonly address: string | null;
}

/**
 * Encoding an address (checksum hashing, base58/bech32) is a tenth of a transaction answer's CPU, and the same
 * scripts come back again and again (busy addresses, change): remember recent descriptions, per network.
 * A capped map drops the oldest entry, so the cache stays bounded.
 */
const CACHE_LIMIT = 50_000;
/**
 * Only scripts up to this size are remembered: every standard output script is shorter (bare 3-of-3 multisig is
 * 105 bytes), and a rare large one is not worth keeping. Bound: 50,000 entries of at most 128 + ~100 bytes (the
 * address) per network, under 12 MiB whatever txs clients view.
 */
const CACHED_SCRIPT_MAX = 128;
const caches = new WeakMap<NetworkParams, CappedMap<string, ScriptDescription>>();

/** P2PK outputs are shown with the P2PKH address of their key, as explorers do (Core gives them none). */
export function describeScript(params: NetworkParams, script: Uint8Array): ScriptDescription {
  if (script.length > CACHED_SCRIPT_MAX) return describeUncached(params, script);
  let cache = caches.get(params);
  if (!cache) caches.set(params, (cache = new CappedMap(CACHE_LIMIT)));
  const key = Buffer.from(script.buffer, script.byteOffset, script.byteLength).toString('latin1');
  const known = cache.get(key);
  if (known) return known;
  const description = describeUncached(params, script);
  cache.set(key, description);
  return description;
}

function describeUncached(params: NetworkParams, script: Uint8Array): ScriptDescription {
  return { type: classifyScript(script, params.features), address: displayAddress(params, script) };
}
