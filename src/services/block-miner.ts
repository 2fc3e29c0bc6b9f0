import { coinbaseText, parseTransaction } from '../chains/parsing.js';
import type { NetworkParams } from '../chains/network-params.js';
import { describeScript } from './script-description.js';

/** Longest accepted tag; pools' tags are short ("/ViaBTC/", "Mined by AntPool"). */
const MAX_TAG = 64;
/** A run of printable bytes this long is a deliberate tag, not chance bytes of the extranonce. */
const MIN_TAG = 6;

/**
 * Who mined a block, as far as the coinbase says: the pool's tag in the coinbase script when it carries one,
 * else the address of the first paying output; "" when neither is determinable.
 */
export function minerOf(params: NetworkParams, coinbaseRaw: Uint8Array | null): string {
  if (!coinbaseRaw) return '';
  const tx = parseTransaction(coinbaseRaw, { mweb: params.features.mweb });
  const tag = coinbaseText(tx, MIN_TAG).trim();
  if (tag) return tag.slice(0, MAX_TAG);
  for (const output of tx.outputs) {
    if (output.value === 0n) continue;
    const address = describeScript(params, output.script).address;
    if (address) return address;
  }
  return '';
}
