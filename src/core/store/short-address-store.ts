import type { NetworkId } from '../domain/network.js';

/** Persistent short forms of addresses (v2 `short`, explorer links). */

/**
 * Short forms (3 to 6 base58 characters) of addresses, per network. A short form is assigned on
 * first request and never changes or moves to another address afterwards (links stay valid).
 * Addresses are stored as given: callers pass the canonical spelling.
 */
export interface ShortAddressStore {
  /** The address's short form, assigning one if it has none yet. */
  shortFor(network: NetworkId, address: string): Promise<string>;
  /** The address a short form names, null if none. */
  addressFor(network: NetworkId, short: string): Promise<string | null>;
}
