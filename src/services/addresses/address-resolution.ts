import { decodeAddress } from '../../chains/addressing.js';
import type { NetworkContext } from '../shared/network-registry.js';

/** An address accepted for one network, with the script the index keys on. */
export interface ResolvedAddress {
  /** As given, except bech32 lower-cased (its canonical spelling; the checksum ignores case). */
  readonly address: string;
  /** null for Litecoin MWEB stealth addresses: valid, but nothing on chain pays them visibly. */
  readonly script: Uint8Array | null;
}

/** Throws InvalidArgumentError (field `address`) when the address is not one of this network's. */
export function resolveAddress(ctx: NetworkContext, address: string): ResolvedAddress {
  const decoded = decodeAddress(ctx.params, address);
  const canonical = decoded.kind === 'witness' || decoded.kind === 'mweb' ? address.toLowerCase() : address;
  return { address: canonical, script: decoded.script };
}
