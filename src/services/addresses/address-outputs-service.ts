import type { Sats } from '../../core/domain/money.js';
import type { UnspentOutput } from '../../core/store/chain-reads.js';
import { resolveAddress } from './address-resolution.js';
import { confirmationsAt } from '../shared/confirmations.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';

/** The spec's page: at most 100 transactions per call (and so at most 100 unconfirmed ones). */
export const PAGE_TXS = 100;
/** Extra outputs fetched for unspent pages: room for txs paying the address several times. */
const UNSPENT_SLACK = 20;

export interface PageRequest {
  /** Only items of transactions after this confirmed one (FIFO). */
  readonly afterTxid?: string;
  /** Only items with at least this many confirmations; 0 includes the mempool. */
  readonly minConfirmations: number;
}

/** An output paying the address (received and unspent listings). */
export interface OutputItem {
  readonly txid: string;
  readonly vout: number;
  readonly value: Sats;
  readonly script: Uint8Array;
  readonly confirmations: number;
  readonly time: number;
}

/** An input of a transaction spending one of the address's outputs. */
export interface InputItem {
  readonly txid: string;
  readonly vin: number;
  readonly value: Sats;
  /** The spent output's script (the address's own). */
  readonly script: Uint8Array;
  readonly confirmations: number;
  readonly time: number;
}

export interface Page<T> {
  readonly network: NetworkContext;
  readonly address: string;
  readonly items: T[];
}

/** FIFO listings of an address's received, spent and unspent outputs, 100 transactions per page. */
export class AddressOutputsService {
  constructor(private readonly networks: NetworkRegistry) {}

  async received(network: string, address: string, page: PageRequest): Promise<Page<OutputItem>> {
    const { ctx, canonical, script } = this.resolve(network, address);
    if (!script) return { network: ctx, address: canonical, items: [] };
    const [tip, entries] = await Promise.all([
      ctx.reader.getTip(),
      ctx.reader.getAddressHistory(script, { ...this.historyOptions(page), kind: 'received' }),
    ]);
    const items = entries.flatMap((e) =>
      e.funding.map((f) => ({ txid: e.txid, vout: f.vout, value: f.value, script, confirmations: confirmationsAt(tip, e.height), time: e.time })),
    );
    return { network: ctx, address: canonical, items: items.filter((i) => i.confirmations >= page.minConfirmations) };
  }

  async spent(network: string, address: string, page: PageRequest): Promise<Page<InputItem>> {
    const { ctx, canonical, script } = this.resolve(network, address);
    if (!script) return { network: ctx, address: canonical, items: [] };
    const [tip, entries] = await Promise.all([
      ctx.reader.getTip(),
      ctx.reader.getAddressHistory(script, { ...this.historyOptions(page), kind: 'spent' }),
    ]);
    const items = entries.flatMap((e) =>
      e.spending.map((s) => ({ txid: e.txid, vin: s.vin, value: s.value, script, confirmations: confirmationsAt(tip, e.height), time: e.time })),
    );
    return { network: ctx, address: canonical, items: items.filter((i) => i.confirmations >= page.minConfirmations) };
  }

  /** Outputs spent by a mempool transaction are already left out by the store. */
  async unspent(network: string, address: string, page: PageRequest): Promise<Page<OutputItem>> {
    const { ctx, canonical, script } = this.resolve(network, address);
    if (!script) return { network: ctx, address: canonical, items: [] };
    // The store pages by outputs; fetch a little more than a page of transactions and cut at a tx boundary,
    // so an after-txid cursor taken from the last item never skips the rest of that tx's outputs.
    const fetch = PAGE_TXS + UNSPENT_SLACK;
    const [tip, outputs] = await Promise.all([
      ctx.reader.getTip(),
      ctx.reader.getUnspent(script, {
        limit: fetch,
        includeMempool: page.minConfirmations === 0,
        ...(page.afterTxid ? { afterTxid: page.afterTxid } : {}),
      }),
    ]);
    const kept = wholeTransactions(outputs, fetch);
    const items = kept.map((o) => ({ txid: o.txid, vout: o.vout, value: o.value, script: o.script, confirmations: confirmationsAt(tip, o.height), time: o.time }));
    return { network: ctx, address: canonical, items: items.filter((i) => i.confirmations >= page.minConfirmations) };
  }

  private resolve(network: string, address: string): { ctx: NetworkContext; canonical: string; script: Uint8Array | null } {
    const ctx = this.networks.resolve(network);
    const resolved = resolveAddress(ctx, address);
    return { ctx, canonical: resolved.address, script: resolved.script };
  }

  private historyOptions(page: PageRequest): { limit: number; direction: 'asc'; includeMempool: boolean; afterTxid?: string } {
    return {
      limit: PAGE_TXS,
      direction: 'asc',
      includeMempool: page.minConfirmations === 0,
      ...(page.afterTxid ? { afterTxid: page.afterTxid } : {}),
    };
  }
}

/** At most PAGE_TXS transactions; when the fetch was full, the last tx group may be cut and is left for the next page. */
function wholeTransactions(outputs: readonly UnspentOutput[], fetched: number): UnspentOutput[] {
  const result: UnspentOutput[] = [];
  const txids: string[] = [];
  for (const output of outputs) {
    if (txids[txids.length - 1] !== output.txid) {
      if (txids.length === PAGE_TXS) break;
      txids.push(output.txid);
    }
    result.push(output);
  }
  if (outputs.length === fetched && result.length === outputs.length && txids.length > 1) {
    const last = txids[txids.length - 1];
    return result.filter((o) => o.txid !== last);
  }
  return result;
}
