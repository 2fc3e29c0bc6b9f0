import { InvalidArgumentError, type NetworkId } from '../../core/index.js';
import { decodeAddress, type NetworkParams } from '../../chains/addressing.js';
import { PRICED_COINS } from '../../chains/networks.js';
import {
  ADDRESS_CHANNEL_PREFIX, BLOCKCHAIN_CHANNEL_PREFIX, networkFromSlug, scriptKey, TICKER_CHANNEL_PREFIX, WALLET_CHANNEL_PREFIX, WALLET_ID,
} from '../../services/events/catalogue/event-channels.js';
import { PusherCode } from '../protocol/error-codes.js';

/*
 * A channel name a client subscribes to, checked against Pusher's naming rules and the channel families of the event
 * catalogue (services/events/catalogue/event-channels.ts, which also builds the names events go to).
 */

/** Pusher's allowed characters and maximum length for channel names. */
const CHANNEL_NAME = /^[A-Za-z0-9_\-=@,.;]+$/;
export const MAX_CHANNEL_NAME_LENGTH = 164;

/** Ticker channels name the coins that have a price (the coin catalogue's), in lower case. */
const TICKER_COINS: readonly string[] = PRICED_COINS.map((coin) => coin.toLowerCase());
const TICKER_BASE = /^[a-z0-9]{2,12}$/;

export type ChannelSpec =
  | { readonly kind: 'address'; readonly network: NetworkId; readonly address: string; readonly scriptKey: string }
  | { readonly kind: 'blockchain'; readonly network: NetworkId }
  | { readonly kind: 'ticker'; readonly coin: string; readonly base: string }
  | { readonly kind: 'wallet'; readonly network: NetworkId; readonly wallet: string };

export type ChannelResolution =
  | { readonly ok: true; readonly spec: ChannelSpec }
  | { readonly ok: false; readonly code: PusherCode; readonly message: string };

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
  if (name.startsWith(BLOCKCHAIN_CHANNEL_PREFIX)) {
    const network = served(name.slice(BLOCKCHAIN_CHANNEL_PREFIX.length));
    return network ? { ok: true, spec: { kind: 'blockchain', network } } : refuse(PusherCode.InvalidMessage, `${name}: network not served`);
  }
  if (name.startsWith(ADDRESS_CHANNEL_PREFIX)) {
    const rest = name.slice(ADDRESS_CHANNEL_PREFIX.length);
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
  if (name.startsWith(WALLET_CHANNEL_PREFIX)) {
    const [slug = '', wallet = '', ...extra] = name.slice(WALLET_CHANNEL_PREFIX.length).split('_');
    const network = served(slug);
    if (!network) return refuse(PusherCode.InvalidMessage, `${name}: network not served`);
    if (extra.length === 0 && WALLET_ID.test(wallet)) return { ok: true, spec: { kind: 'wallet', network, wallet } };
    return refuse(PusherCode.InvalidMessage, `${name}: expected wallet_{network}_{checksum}, the wallet's descriptor checksum (8 characters)`);
  }
  if (name.startsWith(TICKER_CHANNEL_PREFIX)) {
    const [coin = '', base = '', ...extra] = name.slice(TICKER_CHANNEL_PREFIX.length).split('_');
    if (extra.length === 0 && TICKER_COINS.includes(coin) && TICKER_BASE.test(base)) return { ok: true, spec: { kind: 'ticker', coin, base } };
    return refuse(PusherCode.InvalidMessage, `${name}: expected ticker_{${TICKER_COINS.join('|')}}_{base currency}, lower case`);
  }
  return refuse(PusherCode.InvalidMessage, `${name}: no such channel (address_{network}_{address}, blockchain_update_{network}, wallet_{network}_{checksum}, ticker_{coin}_{base})`);
}
