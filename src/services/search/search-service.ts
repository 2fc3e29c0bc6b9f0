import { COINS } from '../../chains/networks.js';
import { MAX_WALLET_TEXT, parseWalletDescriptor } from '../../chains/wallet/wallet-descriptor.js';
import { InvalidArgumentError } from '../../core/domain/errors.js';
import type { ShortAddressStore } from '../../core/store/short-address-store.js';
import { resolveAddress } from '../addresses/address-resolution.js';
import { parseHeight } from '../blocks/block-service.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';

export type SearchHit =
  | { readonly kind: 'address'; readonly network: NetworkContext; readonly address: string }
  | { readonly kind: 'short'; readonly network: NetworkContext; readonly address: string; readonly short: string }
  | { readonly kind: 'tx'; readonly network: NetworkContext; readonly txid: string }
  | { readonly kind: 'block'; readonly network: NetworkContext; readonly hash: string; readonly height: number; readonly isOrphan: boolean }
  /** An extended public key or descriptor valid on the network: `wallet` as typed (the wallet page normalises it). */
  | { readonly kind: 'wallet'; readonly network: NetworkContext; readonly wallet: string };

/** Longer input is not anything we could find (the longest addresses, MWEB stealth, are ~140 characters). */
export const MAX_QUERY_LENGTH = 200;
const HASH = /^[0-9a-fA-F]{64}$/;
/** The shortest hex prefix suggestions look up: 4 digits narrow a 100-million-tx chain to ~1,500 txids, cut to the cap. */
export const MIN_PREFIX_DIGITS = 4;
/** At most this many suggestions in all (and per kind and network from the store). */
export const MAX_SUGGESTIONS = 8;
const HEX_PREFIX = new RegExp(`^[0-9a-fA-F]{${MIN_PREFIX_DIGITS},64}$`);
const SHORT = /^[1-9A-HJ-NP-Za-km-z]{3,6}$/;
/** BIP21 and its cousins: `litecoin:ADDRESS?amount=…` searches for ADDRESS. */
const PAYMENT_URI = new RegExp(`^(?:${COINS.map((c) => c.uriScheme).join('|')}):([^?]+)(?:\\?.*)?$`, 'i');
/** What may be a wallet: a descriptor (it has a script function) or an extended public key's prefix. */
const WALLET = /\(|^(?:xpub|ypub|zpub|tpub|upub|vpub|Ltub|Mtub|ttub|dgub)[1-9A-HJ-NP-Za-km-z]{100,}$/;

/**
 * What the explorer's search box may mean, on every configured network: an address (valid there: several
 * networks may share a format), a short form, a txid or block hash, a block height. Hits come in the order of
 * the configured networks; none is an empty list, never an error.
 */
export class SearchService {
  constructor(
    private readonly networks: NetworkRegistry,
    private readonly shorts: ShortAddressStore,
  ) {}

  async find(query: string): Promise<SearchHit[]> {
    const q = normalise(query);
    if (q === '') return [];
    const contexts = this.networks.ids().map((id) => this.networks.resolve(id));
    const perNetwork = await Promise.all(contexts.map((ctx) => this.findOn(ctx, q)));
    return perNetwork.flat();
  }

  /**
   * What the search box may be heading for, as the visitor types (the explorer's suggestions; plain search falls back
   * to them when nothing matches exactly): exact hits first (a height, a complete address, txid or hash), then txids
   * and block hashes starting with a hex prefix of at least MIN_PREFIX_DIGITS digits, read by index range scans. No
   * address prefixes: the store has no index on address text (docs/explorer.md, "Search suggestions"). At most
   * MAX_SUGGESTIONS, each once.
   */
  async suggest(query: string): Promise<SearchHit[]> {
    const q = normalise(query);
    if (q === '' || WALLET.test(q)) return [];
    const contexts = this.networks.ids().map((id) => this.networks.resolve(id));
    const exact = (await Promise.all(contexts.map((ctx) => this.findOn(ctx, q)))).flat();
    const prefixed = HEX_PREFIX.test(q) && !HASH.test(q) ? (await Promise.all(contexts.map((ctx) => this.prefixOn(ctx, q.toLowerCase())))).flat() : [];
    const seen = new Set<string>();
    const out: SearchHit[] = [];
    // A complete hash is both an exact hit and its own prefix: each page once.
    for (const hit of [...exact, ...prefixed]) {
      const key = `${hit.kind}:${hit.network.id}:${hit.kind === 'tx' ? hit.txid : hit.kind === 'block' ? hit.hash : hit.kind === 'wallet' ? hit.wallet : hit.address}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(hit);
    }
    return out.slice(0, MAX_SUGGESTIONS);
  }

  private async prefixOn(ctx: NetworkContext, prefix: string): Promise<SearchHit[]> {
    const found = await ctx.reader.findHashPrefix(prefix, MAX_SUGGESTIONS);
    return [
      ...found.blocks.map((b): SearchHit => ({ kind: 'block', network: ctx, hash: b.hash, height: b.height, isOrphan: b.isOrphan })),
      ...found.txids.map((txid): SearchHit => ({ kind: 'tx', network: ctx, txid })),
    ];
  }

  private async findOn(ctx: NetworkContext, q: string): Promise<SearchHit[]> {
    const hits: SearchHit[] = [];
    if (WALLET.test(q)) return accepted(() => parseWalletDescriptor(ctx.params, q)) ? [{ kind: 'wallet', network: ctx, wallet: q }] : [];
    if (HASH.test(q)) {
      const id = q.toLowerCase();
      const [tx, block] = await Promise.all([ctx.reader.getTransaction(id), ctx.reader.getBlockByHash(id)]);
      if (tx) hits.push({ kind: 'tx', network: ctx, txid: id });
      if (block) hits.push({ kind: 'block', network: ctx, hash: block.hash, height: block.height, isOrphan: block.isOrphan });
      return hits;
    }
    const height = parseHeight(q);
    if (height !== null) {
      const block = await ctx.reader.getBlockByHeight(height);
      if (block) hits.push({ kind: 'block', network: ctx, hash: block.hash, height: block.height, isOrphan: false });
    }
    if (SHORT.test(q)) {
      const address = await this.shorts.addressFor(ctx.id, q);
      if (address) hits.push({ kind: 'short', network: ctx, address, short: q });
    }
    const address = validAddress(ctx, q);
    if (address) hits.push({ kind: 'address', network: ctx, address });
    return hits;
  }
}

function normalise(query: string): string {
  const trimmed = query.trim();
  if (trimmed.length > (WALLET.test(trimmed) ? MAX_WALLET_TEXT : MAX_QUERY_LENGTH)) return '';
  return PAYMENT_URI.exec(trimmed)?.[1] ?? trimmed;
}

/** What `read` gives, or null when it refuses the input (not this network's: simply no hit). */
function accepted<T>(read: () => T): T | null {
  try {
    return read();
  } catch (error) {
    if (error instanceof InvalidArgumentError) return null;
    throw error;
  }
}

function validAddress(ctx: NetworkContext, text: string): string | null {
  return accepted(() => resolveAddress(ctx, text).address);
}
