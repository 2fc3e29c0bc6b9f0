/**
 * A wallet given as an extended public key or an output descriptor (docs/wallets.md): its gap-scanned addresses, its
 * balances, its transactions newest first with the wallet's net, its unspent outputs with their derivation paths. The
 * v3 routes and the explorer's wallet page read the same methods, so they show the same figures.
 */
import { scriptToAddress } from '../../chains/addressing.js';
import { parseWalletDescriptor } from '../../chains/wallet/wallet-descriptor.js';
import type { WalletPolicy } from '../../chains/wallet/wallet-policy.js';
import { InvalidArgumentError } from '../../core/domain/errors.js';
import type { Sats } from '../../core/domain/money.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';
import type { DerivationBudget } from './derivation-budget.js';
import type { DerivationCache } from './derivation-cache.js';
import type { WalletChains } from './wallet-keys.js';
import { scanWallet, type ScanResult, type UsedAddress } from './gap-scan.js';

export const DEFAULT_GAP = 20;
export const MAX_GAP = 1_000;
/** As v3's address pages. */
export const WALLET_PAGE_SIZE = 10;

export interface WalletAddressRef {
  /** null for a script without an address (P2PK, bare multisig, a raw() script that is none of the standard ones). */
  readonly address: string | null;
  /**
   * From the key: `0/5` (chain 0, index 5); deeper paths for descriptors that derive more steps; keys whose paths
   * differ, each key's comma-separated. null where nothing is derived (plain public keys, addr(), raw()).
   */
  readonly path: string | null;
}

export interface WalletSummary {
  readonly network: NetworkContext;
  /** Normalised, with its checksum: the one spelling of this wallet. */
  readonly descriptor: string;
  readonly gap: number;
  readonly confirmedBalance: Sats;
  /** Live mempool receipts minus mempool spends; may be negative. */
  readonly unconfirmedBalance: Sats;
  /** Sums over the used addresses: a transfer to the wallet's own change counts as received and as sent. */
  readonly confirmedReceived: Sats;
  readonly confirmedSent: Sats;
  /**
   * Per confirmed tx, the wallet's net (paid to it minus spent from it): positive ones summed as received from
   * outside, negative ones as sent outside (fees included). Change and self-transfers cancel; received − sent is the
   * confirmed balance.
   */
  readonly confirmedReceivedExternal: Sats;
  readonly confirmedSentExternal: Sats;
  /** The script form, k of n and each key with its origin. */
  readonly policy: WalletPolicy;
  /** Distinct transactions, mempool included. */
  readonly txsTotal: number;
  readonly usedAddresses: number;
  readonly nextReceive: WalletAddressRef;
  /** null for a descriptor with one chain (no change chain). */
  readonly nextChange: WalletAddressRef | null;
}

export interface WalletAddress extends WalletAddressRef {
  readonly confirmedBalance: Sats;
  readonly unconfirmedBalance: Sats;
  /** Transactions paying or spending from the address, mempool included. */
  readonly txsTotal: number;
}

export interface WalletTx {
  readonly txid: string;
  /** Block time, or first seen while unconfirmed. */
  readonly time: number;
  /** null while unconfirmed. */
  readonly height: number | null;
  /** What the tx paid to the wallet's addresses and what it spent from them. */
  readonly received: Sats;
  readonly sent: Sats;
}

export interface WalletUtxo extends WalletAddressRef {
  readonly txid: string;
  readonly vout: number;
  readonly value: Sats;
  /** null while unconfirmed. */
  readonly height: number | null;
}

export interface WalletPage<T> {
  readonly network: NetworkContext;
  readonly descriptor: string;
  readonly page: number;
  readonly items: readonly T[];
}

interface Scanned {
  readonly ctx: NetworkContext;
  readonly keys: WalletChains;
  readonly gap: number;
  readonly scan: ScanResult;
  readonly policy: WalletPolicy;
}

/** What summaryOfChains reports as the policy of chains that are not a descriptor's. */
const NO_POLICY: WalletPolicy = { form: 'raw', threshold: null, keys: [] };

/** `gap` as given (undefined: the default); InvalidArgumentError outside 1..MAX_GAP. */
export function checkGap(gap: number | undefined): number {
  if (gap === undefined) return DEFAULT_GAP;
  if (!Number.isInteger(gap) || gap < 1 || gap > MAX_GAP) throw new InvalidArgumentError('gap', `gap must be an integer from 1 to ${MAX_GAP} (default ${DEFAULT_GAP})`);
  return gap;
}

/** Everything the explorer's wallet page shows, from one scan. */
export interface WalletOverview {
  readonly summary: WalletSummary;
  readonly addresses: WalletPage<WalletAddress>;
  readonly transactions: WalletPage<WalletTx>;
  readonly unspent: WalletPage<WalletUtxo>;
}

export interface OverviewPages {
  readonly gap?: number;
  readonly txPage: number;
  readonly utxoPage: number;
  readonly pageSize: number;
}

/**
 * The wallet reads. Each names its `client` (the request's address, as every per-client limit keys it): the addresses
 * a read has to derive are charged to that client's network (derivation-budget.ts); null charges nobody.
 */
export class WalletService {
  constructor(
    private readonly networks: NetworkRegistry,
    private readonly cache: DerivationCache,
    private readonly budget: DerivationBudget,
  ) {}

  async summary(network: string, text: string, gap: number | undefined, client: string | null): Promise<WalletSummary> {
    return this.summaryOf(await this.scan(network, text, gap, client));
  }

  /** Every used address, receive chain first, each in index order. */
  async addresses(network: string, text: string, gap: number | undefined, client: string | null): Promise<WalletPage<WalletAddress>> {
    return this.addressesOf(await this.scan(network, text, gap, client));
  }

  /** Newest first, mempool first; a page past the end is empty. */
  async transactions(network: string, text: string, page: number, gap: number | undefined, client: string | null): Promise<WalletPage<WalletTx>> {
    return this.transactionsOf(await this.scan(network, text, gap, client), page, WALLET_PAGE_SIZE);
  }

  /** Oldest first (block order, then the mempool); outputs already spent by a mempool tx are left out. */
  async unspentOutputs(network: string, text: string, page: number, gap: number | undefined, client: string | null): Promise<WalletPage<WalletUtxo>> {
    return this.unspentOf(await this.scan(network, text, gap, client), page, WALLET_PAGE_SIZE);
  }

  /** The derivation cache's size (bytes as counted, wallets): for /metrics. */
  cacheStats(): { bytes: number; wallets: number } {
    return { bytes: this.cache.bytes, wallets: this.cache.wallets };
  }

  /**
   * The summary of chains of scripts that are not a descriptor's (bench/wallet.bench.ts reads the 100k bench chain's
   * busiest scripts this way: its keys are not HD-derived): the same scan and reads as `summary`.
   */
  async summaryOfChains(network: string, keys: WalletChains, gap?: number): Promise<WalletSummary> {
    const ctx = this.networks.resolve(network);
    const g = checkGap(gap);
    return this.summaryOf({ ctx, keys, gap: g, scan: await scanWallet(ctx.reader, keys, g), policy: NO_POLICY });
  }

  async overview(network: string, text: string, pages: OverviewPages, client: string | null): Promise<WalletOverview> {
    const s = await this.scan(network, text, pages.gap, client);
    const [summary, transactions, unspent] = await Promise.all([
      this.summaryOf(s), this.transactionsOf(s, pages.txPage, pages.pageSize), this.unspentOf(s, pages.utxoPage, pages.pageSize),
    ]);
    return { summary, addresses: this.addressesOf(s), transactions, unspent };
  }

  private async summaryOf({ ctx, keys, gap, scan, policy }: Scanned): Promise<WalletSummary> {
    const scripts = scan.used.map((u) => u.script);
    const [counts, flows] = await Promise.all([scan.txCount ?? ctx.reader.scriptSets.getScriptSetTxCount(scripts), ctx.reader.scriptSets.getScriptSetFlows(scripts)]);
    const sum = (pick: (u: UsedAddress) => Sats): Sats => scan.used.reduce((s, u) => s + pick(u), 0n);
    return {
      network: ctx,
      descriptor: keys.descriptor,
      gap,
      confirmedBalance: sum((u) => u.totals.confirmedBalance),
      unconfirmedBalance: sum((u) => u.totals.unconfirmedBalance),
      confirmedReceived: sum((u) => u.totals.confirmedReceived),
      confirmedSent: sum((u) => u.totals.confirmedSent),
      confirmedReceivedExternal: flows.received,
      confirmedSentExternal: flows.sent,
      policy,
      txsTotal: counts.confirmed + counts.mempool,
      usedAddresses: scan.used.length,
      nextReceive: await this.nextAddress(ctx, keys, scan, 0),
      nextChange: keys.chains > 1 ? await this.nextAddress(ctx, keys, scan, 1) : null,
    };
  }

  private addressesOf({ ctx, keys, scan }: Scanned): WalletPage<WalletAddress> {
    const items = scan.used.map((u) => ({
      ...this.ref(ctx, keys, u),
      confirmedBalance: u.totals.confirmedBalance,
      unconfirmedBalance: u.totals.unconfirmedBalance,
      txsTotal: u.totals.txCount + u.totals.unconfirmedTxCount,
    }));
    return { network: ctx, descriptor: keys.descriptor, page: 1, items };
  }

  private async transactionsOf({ ctx, keys, scan }: Scanned, page: number, pageSize: number): Promise<WalletPage<WalletTx>> {
    const entries = await ctx.reader.scriptSets.getScriptSetHistory(scan.used.map((u) => u.script), { limit: pageSize, offset: (page - 1) * pageSize });
    const items = entries.map((e) => ({ txid: e.txid, time: e.time, height: e.height, received: e.received, sent: e.sent }));
    return { network: ctx, descriptor: keys.descriptor, page, items };
  }

  private async unspentOf({ ctx, keys, scan }: Scanned, page: number, pageSize: number): Promise<WalletPage<WalletUtxo>> {
    const byScript = new Map(scan.used.map((u) => [Buffer.from(u.script).toString('hex'), u]));
    const outputs = await ctx.reader.scriptSets.getScriptSetUnspent(scan.used.map((u) => u.script), { limit: pageSize, offset: (page - 1) * pageSize });
    const items = outputs.map((o) => ({
      ...this.ref(ctx, keys, byScript.get(Buffer.from(o.script).toString('hex'))!),
      txid: o.txid,
      vout: o.vout,
      value: o.value,
      height: o.height,
    }));
    return { network: ctx, descriptor: keys.descriptor, page, items };
  }

  private async scan(network: string, text: string, gap: number | undefined, client: string | null): Promise<Scanned> {
    const ctx = this.networks.resolve(network);
    const g = checkGap(gap);
    const wallet = parseWalletDescriptor(ctx.params, text);
    const keys = this.cache.get(`${ctx.id}:${ctx.params.chain}:${wallet.descriptor}`, wallet).forRequest(this.budget.charge(client));
    return { ctx, keys, gap: g, scan: await scanWallet(ctx.reader, keys, g), policy: wallet.policy };
  }

  private ref(ctx: NetworkContext, keys: WalletChains, u: { chain: number; index: number; script: Uint8Array }): WalletAddressRef {
    return { address: scriptToAddress(ctx.params, u.script), path: keys.path(u.chain, u.index) };
  }

  /** The index after the chain's last used one (a descriptor without `*` has only its one), in the form handed out. */
  private async nextAddress(ctx: NetworkContext, keys: WalletChains, scan: ScanResult, chain: number): Promise<WalletAddressRef> {
    const index = Math.min(scan.next[chain]!, keys.chainLength / keys.width - 1);
    const position = index * keys.width + keys.addressForm;
    const [script] = await keys.range(chain, position, position + 1);
    return this.ref(ctx, keys, { chain, index: position, script: script! });
  }
}
