import type { NetworkId } from '../../../core/domain/network.js';
import type { NetworkParams } from '../../../chains/network-params.js';
import { LastTxSummary } from '../tx-summary.js';
import { TxRate } from './tx-rate.js';

/**
 * What rendering an event needs besides the event, kept by each renderer: the networks served, the tx rate of each
 * (`tx_update`'s `txpm`), and the last tx summary (a tx's address events come one after another and share it). The
 * live fan-out of every process and the event log's renderer each hold their own: every process counts every
 * accepted tx, so txpm agrees between processes.
 */
export class RenderState {
  private readonly rates = new Map<NetworkId, TxRate>();
  readonly summaries = new LastTxSummary();

  constructor(
    private readonly networks: ReadonlyMap<NetworkId, NetworkParams>,
    readonly nowMs: () => number = Date.now,
  ) {}

  serves(network: NetworkId): boolean {
    return this.networks.has(network);
  }

  /** A served network's parameters (renderers are called for served networks only). */
  params(network: NetworkId): NetworkParams {
    return this.networks.get(network)!;
  }

  /** Counts one accepted tx of the network now; the rate to read its txpm from. */
  recordTx(network: NetworkId): TxRate {
    let rate = this.rates.get(network);
    if (!rate) this.rates.set(network, (rate = new TxRate()));
    rate.record(this.nowMs());
    return rate;
  }
}
