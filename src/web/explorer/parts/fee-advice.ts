import type { FeeEstimates } from '../../../services/fees/fee-service.js';
import type { NetworkContext } from '../../../services/shared/network-registry.js';
import { html, type SafeHtml } from '../../shell/html.js';
import type { ExplorerDeps } from '../explorer-deps.js';
import { feeRate, plural } from '../format.js';

/**
 * The fee rates of `GET /api/v3/fee_estimates/{network}`, from the same service (services.fees), so the page and the
 * API never disagree; null when they cannot be had now (the card is shown without them rather than failing).
 */
export async function feeEstimatesOf(deps: ExplorerDeps, network: NetworkContext): Promise<FeeEstimates | null> {
  try {
    return await deps.services.fees.estimates(network.id);
  } catch {
    return null;
  }
}

/** A key for cached cards: the same rates render the same markup. */
export function feeKey(fees: FeeEstimates | null): string {
  return fees ? `${fees.rates.fastest}/${fees.rates.halfHour}/${fees.rates.hour}/${fees.rates.economy}/${fees.rates.minimum}/${fees.nodeEstimates}` : '-';
}

/** "Next block / ~30 min / ~1 h / economy / minimum", each with its rate; where the figures come from, linked. */
export function feeAdvice(network: NetworkContext, fees: FeeEstimates | null): SafeHtml {
  if (!fees) return html``;
  const coin = network.params.coin;
  const { rates, targets } = fees;
  const item = (label: string, rate: number, hint: string): SafeHtml =>
    html`<li><span class="fee-label">${label}</span> <strong>${feeRate(rate, coin)}</strong> <span class="muted">${hint}</span></li>`;
  return html`<section class="fee-advice" aria-label="Fee rates to pay now">
<ul class="fees">
${item('Next block', rates.fastest, plural(targets.fastest, 'block'))}
${item('~30 min', rates.halfHour, `within ${plural(targets.halfHour, 'block')}`)}
${item('~1 hour', rates.hour, `within ${plural(targets.hour, 'block')}`)}
${item('Economy', rates.economy, 'within a day')}
${item('Minimum', rates.minimum, 'enters the mempool')}
</ul>
<p class="muted small">From our mempool projection${fees.nodeEstimates ? " and the node's estimatesmartfee" : " and the node's relay fee"}; the same figures as v3 <code>fee_estimates</code> (<a href="/docs">API reference</a>).</p>
</section>`;
}
