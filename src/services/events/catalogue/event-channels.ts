import { NETWORK_IDS, type NetworkId } from '../../../core/domain/network.js';

/*
 * The channels events go to (docs/realtime.md), by name, and how each is keyed in the event log. Realtime checks a
 * name a client subscribes to against these, the catch-up feed reads the log by them, and the explorer's pages name
 * the channels their live script follows with them. Networks are written in lower case in channel names: doge, btc,
 * ltc and the test networks dogetest, btctest, ltctest (the API acronym lower-cased; a regtest node answers as its
 * coin's test network).
 */

export const BLOCKCHAIN_CHANNEL_PREFIX = 'blockchain_update_';
export const ADDRESS_CHANNEL_PREFIX = 'address_';
export const TICKER_CHANNEL_PREFIX = 'ticker_';
export const WALLET_CHANNEL_PREFIX = 'wallet_';
/** A wallet's id in its channel's name: its normalised descriptor's BIP380 checksum (8 characters of its alphabet). */
export const WALLET_ID = /^[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{8}$/;

export function networkSlug(network: NetworkId): string {
  return network.toLowerCase();
}

export function networkFromSlug(slug: string): NetworkId | null {
  return NETWORK_IDS.find((id) => id.toLowerCase() === slug) ?? null;
}

/** `blockchain_update_{network}`: blocks, mempool txs and double spends of a network. */
export function blockchainChannel(network: NetworkId): string {
  return `${BLOCKCHAIN_CHANNEL_PREFIX}${networkSlug(network)}`;
}

/** `address_{network}_{address}`, the address as the client spells it (every spelling of one address gets its events). */
export function addressChannel(network: NetworkId, address: string): string {
  return `${ADDRESS_CHANNEL_PREFIX}${networkSlug(network)}_${address}`;
}

/** `wallet_{network}_{checksum}` (issue 50): the txs of a wallet the writer watches (a wallet webhook's), one event per tx. */
export function walletChannel(network: NetworkId, wallet: string): string {
  return `${WALLET_CHANNEL_PREFIX}${networkSlug(network)}_${wallet}`;
}

/** A wallet channel's key in the event log: `wallet:{checksum}`. */
export function walletKey(wallet: string): string {
  return `wallet:${wallet}`;
}

/** Price events name coin and base in upper case; the channel uses lower case as the reference clients do. */
export function tickerChannel(coin: string, base: string): string {
  return `${TICKER_CHANNEL_PREFIX}${coin.toLowerCase()}_${base.toLowerCase()}`;
}

/**
 * How a channel is named inside the event log of its network: `blockchain` for `blockchain_update_{network}`, the
 * output script in hex for `address_{network}_{address}` (so every spelling of one address reads the same rows, as
 * live events reach every spelling). Written by the log's renderer (event-log-entries.ts), read by the catch-up feed.
 */
export const BLOCKCHAIN_KEY = 'blockchain';

export function addressKey(script: Uint8Array): string {
  return Buffer.from(script.buffer, script.byteOffset, script.byteLength).toString('hex');
}

/** Address channels are found by script, so `3…` and `M…` spellings of one Litecoin P2SH share events. */
export function scriptKey(network: NetworkId, script: Uint8Array): string {
  return `${network}:${addressKey(script)}`;
}

/** The key of a tx's shared summary in the log (`{"$ref":…}` in its address events' payloads; no channel reads it). */
export function txSummaryKey(txid: string): string {
  return `tx:${txid}`;
}
