import type { Sats } from '../../core/domain/money.js';
import type { AddressHistoryEntry, AddressTotals, SpendRef } from '../../core/store/chain-reads.js';
import type { ChainTip } from '../../core/domain/chain-types.js';
import { AddressBalancesService } from './address-balances-service.js';
import { resolveAddress } from './address-resolution.js';
import { confirmationsAt } from '../shared/confirmations.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';
import { describeScript } from '../transactions/script-description.js';

/** The spec's "about 50" latest transactions of the address display. */
export const DISPLAY_TXS = 50;

export interface Counterparty {
  readonly index: number;
  /** null when the script has no address. */
  readonly address: string | null;
  readonly value: Sats;
}

export interface AddressDisplayTx {
  readonly txid: string;
  readonly height: number | null;
  readonly confirmations: number;
  readonly time: number;
  /** Outputs paying the address, with whether they were spent since. */
  readonly incoming: readonly { vout: number; value: Sats; spentBy: SpendRef | null }[];
  /** Who paid: the addresses of the tx's inputs. */
  readonly senders: readonly Counterparty[];
  /** Inputs spending the address's outputs. */
  readonly outgoing: readonly { vin: number; value: Sats }[];
  /** Who received: every output of the tx (the change back to the address included), with spenders. */
  readonly receivers: readonly (Counterparty & { spentBy: SpendRef | null })[];
  readonly received: Sats;
  readonly sent: Sats;
}

export interface AddressDisplay {
  readonly network: NetworkContext;
  readonly address: string;
  readonly totals: AddressTotals;
  readonly txs: readonly AddressDisplayTx[];
}

/** The explorer's address page: totals plus the latest transactions, newest first, with counterparties. */
export class AddressDisplayService {
  private readonly addresses: AddressBalancesService;

  constructor(private readonly networks: NetworkRegistry) {
    this.addresses = new AddressBalancesService(networks);
  }

  async display(network: string, address: string): Promise<AddressDisplay> {
    const { network: ctx, address: canonical, totals } = await this.addresses.totals(network, address);
    const { script } = resolveAddress(ctx, address);
    if (!script) return { network: ctx, address: canonical, totals, txs: [] };
    const [tip, entries] = await Promise.all([
      ctx.reader.getTip(),
      ctx.reader.getAddressHistory(script, { limit: DISPLAY_TXS, direction: 'desc' }),
    ]);
    const txs = await Promise.all(entries.map((e) => this.detail(ctx, tip, e)));
    return { network: ctx, address: canonical, totals, txs };
  }

  private async detail(ctx: NetworkContext, tip: ChainTip | null, entry: AddressHistoryEntry): Promise<AddressDisplayTx> {
    const [record, outputs] = await Promise.all([ctx.reader.getTransaction(entry.txid), ctx.reader.getOutputs(entry.txid)]);
    const spenders = new Map((outputs ?? []).map((o) => [o.vout, o.spentBy]));
    const senders: Counterparty[] = (record?.prevouts ?? []).flatMap((p, index) =>
      p ? [{ index, address: describeScript(ctx.params, p.script).address, value: p.value }] : [],
    );
    // From the stored outputs (every output of a confirmed or live mempool tx, the only kinds a history lists): no raw
    // bytes needed, so the page answers while a node keeping them (raw_txs = "node") is down.
    const receivers = [...(outputs ?? [])].sort((a, b) => a.vout - b.vout).map((o) => ({
      index: o.vout,
      address: describeScript(ctx.params, o.script).address,
      value: o.value,
      spentBy: o.spentBy,
    }));
    return {
      txid: entry.txid,
      height: entry.height,
      confirmations: confirmationsAt(tip, entry.height),
      time: entry.time,
      incoming: entry.funding.map((f) => ({ vout: f.vout, value: f.value, spentBy: spenders.get(f.vout) ?? null })),
      senders,
      outgoing: entry.spending.map((s) => ({ vin: s.vin, value: s.value })),
      receivers,
      received: entry.received,
      sent: entry.sent,
    };
  }
}
