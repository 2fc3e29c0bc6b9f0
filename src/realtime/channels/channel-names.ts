import { InvalidArgumentError, NETWORK_IDS, type NetworkId } from '../../core/index.js';
import { decodeAddress, type NetworkParams } from '../../chains/addressing.js';
import { PusherCode } from '../protocol/error-codes.js';

/*
 * The channel families of the spec, and Pusher's naming rules. Networks are written in lower case
 * in channel names: doge, btc, ltc and the test networks dogetest, btctest, ltctest (the API
 * acronym lower-cased; a regtest node answers as its coin's test network).
 */

/** Pusher's allowed characters and maximum length for channel names. */
const CHANNEL_NAME = /^[A-Za-z0-9_\-=@,.;]+$/;
export const MAX_CHANNEL_NAME_LENGTH = 164;

const TICKER_COINS: ReadonlySet<string> = new Set(['btc', 'ltc', 'doge']);
const TICKER_BASE = /^[a-z0-9]{2,12}$/;

export type ChannelSpec =
  | { readonly kind: 'address'; readonly network: NetworkId; readonly address: string; readonly scriptKey: string }
  | { readonly kind: 'blockchain'; readonly network: NetworkId }
  | { readonly kind: 'ticker'; readonly coin: string; readonly base: string };

export type ChannelResolution =
  | { readonly ok: true; readonly spec: ChannelSpec }
  | { readonly ok: false; readonly code: PusherCode; readonly message: string };

export function networkSlug(network: NetworkId): string {
  return network.toLowerCase();
}

export function networkFromSlug(slug: string): NetworkId | null {
  return NETWORK_IDS.find((id) => id.toLowerCase() === slug) ?? null;
}

/** Address channels are found by script, so `3…` and `M…` spellings of one Litecoin P2SH share events. */
export function scriptKey(network: NetworkId, script: Uint8Array): string {
  return `${network}:${Buffer.from(script.buffer, script.byteOffset, script.byteLength).toString('hex')}`;
}

export function blockchainChannel(network: NetworkId): string {
  return `blockchain_update_${networkSlug(network)}`;
}

/** Price events name coin and base in upper case; the channel uses lower case as the reference clients do. */
export function tickerChannel(coin: string, base: string): string {
  return `ticker_${coin.toLowerCase()}_${base.toLowerCase()}`;
}

function refuse(code: PusherCode, message: string): ChannelResolution {
  return { ok: false, code, message };
}

/** Names a channel that exists here, for the networks this process serves, or says why not. */
export function resolveChannel(name: string, networks: ReadonlyMap<NetworkId, NetworkParams>): ChannelResolution {
  if (name.length === 0 || name.length > MAX_CHANNEL_NAME_LENGTH || !CHANNEL_NAME.test(name)) {
    return refuse(PusherCode.InvalidMessage, `Invalid channel name (allowed: A-Z a-z 0-9 _ - = @ , . ; up to ${MAX_CHANNEL_NAME_LENGTH} characters)`);
  }
  if (name.startsWith('private-') || name.startsWith('presence-')) {
    return refuse(PusherCode.Unauthorized, `${name}: private and presence channels are not offered; every channel here is public`);
  }
  const served = (slug: string): NetworkId | null => {
    const network = networkFromSlug(slug);
    return network !== null && networks.has(network) ? network : null;
  };
  if (name.startsWith('blockchain_update_')) {
    const network = served(name.slice('blockchain_update_'.length));
    return network ? { ok: true, spec: { kind: 'blockchain', network } } : refuse(PusherCode.InvalidMessage, `${name}: network not served`);
  }
  if (name.startsWith('address_')) {
    const rest = name.slice('address_'.length);
    const sep = rest.indexOf('_');
    const network = sep > 0 ? served(rest.slice(0, sep)) : null;
    if (!network) return refuse(PusherCode.InvalidMessage, `${name}: network not served`);
    const address = rest.slice(sep + 1);
    try {
      const decoded = decodeAddress(networks.get(network)!, address);
      if (decoded.script === null) return refuse(PusherCode.InvalidMessage, `${name}: MWEB stealth addresses have no visible transactions`);
      return { ok: true, spec: { kind: 'address', network, address, scriptKey: scriptKey(network, decoded.script) } };
    } catch (err) {
      if (err instanceof InvalidArgumentError) return refuse(PusherCode.InvalidMessage, `${name}: ${err.message}`);
      throw err;
    }
  }
  if (name.startsWith('ticker_')) {
    const [coin = '', base = '', ...extra] = name.slice('ticker_'.length).split('_');
    if (extra.length === 0 && TICKER_COINS.has(coin) && TICKER_BASE.test(base)) return { ok: true, spec: { kind: 'ticker', coin, base } };
    return refuse(PusherCode.InvalidMessage, `${name}: expected ticker_{btc|ltc|doge}_{base currency}, lower case`);
  }
  return refuse(PusherCode.InvalidMessage, `${name}: no such channel (address_{network}_{address}, blockchain_update_{network}, ticker_{coin}_{base})`);
}
