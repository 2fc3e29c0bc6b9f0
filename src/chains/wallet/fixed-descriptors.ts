/**
 * `addr(ADDRESS)` and `raw(HEX)` (BIP385): descriptors of one fixed output script, read as a wallet of that one
 * script. Their normalised text is the canonical spelling (the address as Core's ExtractDestination writes it:
 * lower-case bech32, the current P2SH version; lower-case hex).
 */
import { InvalidArgumentError } from '../../core/domain/errors.js';
import { decodeAddress, scriptToAddress } from '../address/address.js';
import { fromHex, toHex } from '../hash.js';
import type { NetworkParams } from '../network-params.js';
import { invalidWallet } from './extended-key.js';

export interface FixedScript {
  readonly script: Uint8Array;
  /** The argument as the normalised descriptor writes it. */
  readonly text: string;
}

export function parseAddr(params: NetworkParams, text: string): FixedScript {
  let decoded;
  try {
    decoded = decodeAddress(params, text);
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw invalidWallet(`addr(): ${error.message}`);
    throw error;
  }
  if (decoded.script === null) throw invalidWallet('addr(): an MWEB stealth address has no output script to watch');
  return { script: decoded.script, text: scriptToAddress(params, decoded.script) ?? text };
}

export function parseRaw(text: string): FixedScript {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(text)) throw invalidWallet('raw(): the script must be hex, a whole number of bytes');
  const script = fromHex(text);
  return { script, text: toHex(script) };
}
