import { bech32 } from '@scure/base';
import { isValidPubkeySize } from '../script/classify.js';

/*
 * Litecoin MWEB stealth addresses (`ltcmweb1…`, testnet/regtest `tmweb1…`), as Litecoin Core's
 * key_io encodes them: bech32 (not bech32m) with the 5-bit version 0 first, then the 66-byte
 * payload scan pubkey (33) || spend pubkey (33) in 5-bit groups. That makes 121 (119 on testnet)
 * characters, past BIP173's 90, so decoding lifts the limit. There is no scriptPubKey: coins sent
 * to them live inside the MWEB extension block.
 */

/** Exact length budget: longest hrp we know (7) + 1 + 1 version word + 106 payload words + 6 checksum. */
const MWEB_ADDRESS_MAX_LENGTH = 128;
const MWEB_ADDRESS_VERSION = 0;
const PUBKEY_LENGTH = 33;

export interface StealthAddress {
  readonly scanPubkey: Uint8Array;
  readonly spendPubkey: Uint8Array;
}

export function encodeMwebAddress(hrp: string, address: StealthAddress): string {
  if (address.scanPubkey.length !== PUBKEY_LENGTH || address.spendPubkey.length !== PUBKEY_LENGTH) {
    throw new RangeError('MWEB stealth address keys are 33-byte compressed public keys');
  }
  const payload = new Uint8Array(2 * PUBKEY_LENGTH);
  payload.set(address.scanPubkey, 0);
  payload.set(address.spendPubkey, PUBKEY_LENGTH);
  return bech32.encode(hrp, [MWEB_ADDRESS_VERSION, ...bech32.toWords(payload)], false);
}

export function decodeMwebAddress(hrp: string, address: string): StealthAddress | { readonly error: string } {
  if (address.length > MWEB_ADDRESS_MAX_LENGTH) return { error: 'MWEB address too long' };
  const decoded = bech32.decodeUnsafe(address, MWEB_ADDRESS_MAX_LENGTH);
  if (!decoded) return { error: 'invalid bech32 string or checksum (MWEB addresses use bech32, not bech32m)' };
  if (decoded.prefix !== hrp) return { error: `MWEB prefix ${decoded.prefix} is not this network's (${hrp})` };
  const [version, ...data] = decoded.words;
  if (version !== MWEB_ADDRESS_VERSION) return { error: `unknown MWEB address version ${String(version)}` };
  const payload = bech32.fromWordsUnsafe(data);
  if (!payload) return { error: 'invalid padding in MWEB address data' };
  if (payload.length !== 2 * PUBKEY_LENGTH) return { error: `MWEB payload is ${payload.length} bytes, expected 66` };
  const scanPubkey = payload.slice(0, PUBKEY_LENGTH);
  const spendPubkey = payload.slice(PUBKEY_LENGTH);
  if (!isCompressed(scanPubkey) || !isCompressed(spendPubkey)) return { error: 'MWEB keys must be compressed public keys' };
  return { scanPubkey, spendPubkey };
}

function isCompressed(key: Uint8Array): boolean {
  return isValidPubkeySize(key) && key.length === PUBKEY_LENGTH;
}
