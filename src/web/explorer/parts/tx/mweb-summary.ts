import type { TxView } from '../../../../services/transactions/tx-service.js';
import { html, type SafeHtml } from '../../../shell/html.js';
import { amount, hash, link, table } from '../../format.js';
import { outputPath, txPath } from '../../paths.js';
import { payee } from './tx-io.js';

/**
 * A Litecoin block's MWEB part, from its HogEx (the integrating tx, last in the block): its first input is the
 * previous HogEx's output (absent at activation), the others are the block's peg-ins; output 0 is the new HogEx
 * output (all coins inside MWEB), the others are peg-outs. What happens inside MWEB is confidential.
 */
export function mwebSummary(hogex: TxView): SafeHtml {
  const coin = hogex.network.params.coin;
  const net = hogex.network.id;
  const pegIns = hogex.inputs.filter((i) => i.prevDescription?.type === 'witness_mweb_pegin');
  const pegOuts = hogex.outputs.filter((o) => o.description.type !== 'witness_mweb_hogaddr');
  const state = hogex.outputs.find((o) => o.description.type === 'witness_mweb_hogaddr');
  const sum = (values: readonly bigint[]): bigint => values.reduce((s, v) => s + v, 0n);
  return html`<section aria-labelledby="mweb-title">
<h2 id="mweb-title">MWEB (MimbleWimble extension block)</h2>
<dl class="kv">
<dt>HogEx transaction</dt><dd>${link(txPath(net, hogex.record.txid), hash(hogex.record.txid))}</dd>
${state ? html`<dt>Coins inside MWEB</dt><dd>${amount(state.value, coin)}</dd>` : ''}
<dt>Peg-ins</dt><dd>${String(pegIns.length)} · ${amount(sum(pegIns.map((i) => i.value ?? 0n)), coin)}</dd>
<dt>Peg-outs</dt><dd>${String(pegOuts.length)} · ${amount(sum(pegOuts.map((o) => o.value)), coin)}</dd>
</dl>
${pegIns.length > 0 ? table('MWEB peg-ins', html`<tr><th scope="col">Peg-in output</th><th scope="col" class="num">Value</th></tr>`,
  pegIns.map((i) => html`<tr><td>${link(outputPath(net, i.prevTxid, i.prevVout), html`${hash(i.prevTxid)}:${String(i.prevVout)}`)}</td><td class="num">${i.value !== null ? amount(i.value, coin) : '—'}</td></tr>`)) : ''}
${pegOuts.length > 0 ? table('MWEB peg-outs', html`<tr><th scope="col">Paid to</th><th scope="col" class="num">Value</th></tr>`,
  pegOuts.map((o) => html`<tr><td>${payee(hogex, o.description)}</td><td class="num">${amount(o.value, coin)}</td></tr>`)) : ''}
</section>`;
}
