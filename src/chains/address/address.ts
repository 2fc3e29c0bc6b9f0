import { InvalidArgumentError } from '../../core/domain/errors.js';
import { hash160 } from '../hash.js';
import type { NetworkParams } from '../network-params.js';
import { classifyScript, getP2pkPubkey, getWitnessProgram, isValidPubkeySize } from '../script/classify.js';
import { decodeBase58Address, encodeBase58Address, p2pkhScript, p2shScript } from './base58-address.js';
import { decodeMwebAddress } from './mweb-address.js';
import { decodeSegwitAddress, encodeSegwitAddress, witnessScript } from './segwit-address.js';

/*
 * Addresses are decoded to scriptPubKey at the edge (the index keys on scripts) and encoded only
 * for display. Every rule is per network: an address valid on one network is invalid on all others,
 * except that testnet3/testnet4/signet share formats and regtest shares testnet's base58 versions.
 */

export type AddressKind = 'pubkeyhash' | 'scripthash' | 'witness' | 'mweb';

export interface DecodedAddress {
  readonly kind: AddressKind;
  /** The scriptPubKey that pays this address; null for MWEB stealth addresses (they have none). */
  readonly script: Uint8Array | null;
  readonly witnessVersion?: number;
}

/** The part before the last "1", lower-cased: what a bech32 hrp would be. */
function bech32Prefix(address: string): string | null {
  const sep = address.lastIndexOf('1');
  return sep > 0 ? address.slice(0, sep).toLowerCase() : null;
}

function invalid(params: NetworkParams, reason: string): InvalidArgumentError {
  return new InvalidArgumentError('address', `not a valid ${params.name} address: ${reason}`);
}

/**
 * Base58 is tried first and bech32 only for this network's hrps: a base58 address may itself
 * start with "LTC1" (`LTC1eqUz…`), so a case-insensitive prefix test must not pick the decoder.
 * A string cannot pass both checksums in practice (bech32 strings are not 21-byte base58 payloads).
 */
export function decodeAddress(params: NetworkParams, address: string): DecodedAddress {
  if (typeof address !== 'string' || address.length === 0) throw invalid(params, 'empty');
  if (address.length > 200) throw invalid(params, 'too long');

  const base58 = decodeBase58Address(address);
  if (!('error' in base58)) {
    if (base58.version === params.pubkeyHashVersion) return { kind: 'pubkeyhash', script: p2pkhScript(base58.hash) };
    if (params.scriptHashVersions.includes(base58.version)) return { kind: 'scripthash', script: p2shScript(base58.hash) };
    throw invalid(params, `base58 version ${base58.version} belongs to another network`);
  }

  const prefix = bech32Prefix(address);
  if (prefix !== null && params.bech32Hrp !== null && prefix === params.bech32Hrp) {
    const witness = decodeSegwitAddress(params.bech32Hrp, address);
    if ('error' in witness) throw invalid(params, witness.error);
    return { kind: 'witness', script: witnessScript(witness.version, witness.program), witnessVersion: witness.version };
  }
  if (prefix !== null && params.mwebHrp !== null && prefix === params.mwebHrp) {
    const stealth = decodeMwebAddress(params.mwebHrp, address);
    if ('error' in stealth) throw invalid(params, stealth.error);
    return { kind: 'mweb', script: null };
  }
  if (prefix !== null && /^[a-z]{1,10}$/.test(prefix)) {
    // Looks like bech32 for some other network (or a chain without segwit, such as Dogecoin).
    throw invalid(params, params.bech32Hrp === null ? 'this network has no bech32 addresses' : `unknown prefix ${prefix}`);
  }
  throw invalid(params, base58.error);
}

export function isValidAddress(params: NetworkParams, address: string): boolean {
  try {
    decodeAddress(params, address);
    return true;
  } catch (err) {
    if (err instanceof InvalidArgumentError) return false;
    throw err;
  }
}

/** The scriptPubKey paying `address`; throws for invalid and for MWEB stealth addresses (no script). */
export function addressToScript(params: NetworkParams, address: string): Uint8Array {
  const decoded = decodeAddress(params, address);
  if (decoded.script === null) throw invalid(params, 'MWEB stealth addresses have no scriptPubKey');
  return decoded.script;
}

/**
 * The address Core's ExtractDestination gives for an output script on this network, or null where
 * it gives none: pubkey (see pubkeyToP2pkhAddress), multisig, nulldata, nonstandard, the MWEB
 * peg-in/HogEx outputs on Litecoin, and witness outputs on chains without bech32 (Dogecoin).
 * Always canonical: lower-case bech32 and the first (current) P2SH version.
 */
export function scriptToAddress(params: NetworkParams, script: Uint8Array): string | null {
  switch (classifyScript(script, params.features)) {
    case 'pubkeyhash':
      return encodeBase58Address(params.pubkeyHashVersion, script.subarray(3, 23));
    case 'scripthash':
      return encodeBase58Address(params.scriptHashVersions[0] as number, script.subarray(2, 22));
    case 'witness_v0_keyhash':
    case 'witness_v0_scripthash':
    case 'witness_v1_taproot':
    case 'witness_unknown': {
      const witness = getWitnessProgram(script);
      if (!witness || params.bech32Hrp === null) return null;
      return encodeSegwitAddress(params.bech32Hrp, witness.version, witness.program);
    }
    default:
      return null;
  }
}

/** The P2PKH address of a public key: what explorers show for P2PK outputs (Core gives none). */
export function pubkeyToP2pkhAddress(params: NetworkParams, pubkey: Uint8Array): string {
  if (!isValidPubkeySize(pubkey)) throw new InvalidArgumentError('pubkey', 'not a 33-byte or 65-byte public key');
  return encodeBase58Address(params.pubkeyHashVersion, hash160(pubkey));
}

/**
 * The address users see for an output script: Core's (scriptToAddress), or for a bare public key (P2PK, early
 * coinbases) the P2PKH address of that key, as explorers show it; null when the script pays no address.
 */
export function displayAddress(params: NetworkParams, script: Uint8Array): string | null {
  const address = scriptToAddress(params, script);
  if (address !== null) return address;
  const pubkey = getP2pkPubkey(script);
  return pubkey ? pubkeyToP2pkhAddress(params, pubkey) : null;
}
