/** The address page's balance over time (services/addresses/address-balance-history-service.ts), as a stepped line. */
import { formatCoins } from '../../../../core/domain/money.js';
import type { BalanceHistory } from '../../../../services/addresses/address-balance-history-service.js';
import type { NetworkContext } from '../../../../services/shared/network-registry.js';
import { html, type SafeHtml } from '../../../shell/html.js';
import { amount, count, link, plural, table } from '../../format.js';
import { blockPath } from '../../paths.js';
import { utcTime } from '../../../shared/relative-time.js';
import { chartFigures, lineChart } from './line-chart.js';

export function balanceChart(network: NetworkContext, history: BalanceHistory, now: number): SafeHtml {
  const { points } = history;
  if (points.length === 0) return html``;
  const coin = network.params.coin;
  const max = points.reduce((m, p) => (p.balance > m ? p.balance : m), 0n);
  const rows = [...points].reverse().map((p) => html`<tr data-height="${String(p.height)}"><td>${link(blockPath(network.id, p.height), count(p.height))}</td><td>${utcTime(p.time)}</td><td class="num">${amount(p.change, coin)}</td><td class="num">${amount(p.balance, coin)}</td></tr>`);
  const scope = history.capped ? `its newest ${count(history.txsRead)} confirmed txs (older ones are not drawn)` : `all ${plural(history.txsRead, 'confirmed tx')}`;
  return html`<section aria-labelledby="balance-history-title"><h2 id="balance-history-title">Balance over time</h2>
<figure class="chart history-chart" id="balance-history">
${lineChart({
  id: 'balance-history-chart',
  title: `Confirmed balance after each of ${plural(points.length, 'block')} that touched this address`,
  times: points.map((p) => p.time),
  to: Math.max(now, points[points.length - 1]!.time),
  stepped: true,
  panels: [{ label: `Balance, up to ${formatCoins(max)} ${coin}`, values: points.map((p) => Number(p.balance)), kind: 'line-a' }],
})}
<figcaption>Confirmed balance after each block, from ${scope}.</figcaption>
${chartFigures(`The ${plural(points.length, 'block')} drawn`, table('Balance after each block, newest first', html`<tr><th scope="col">Block</th><th scope="col">Time</th><th scope="col" class="num">Change</th><th scope="col" class="num">Balance after</th></tr>`, rows))}
</figure></section>`;
}
