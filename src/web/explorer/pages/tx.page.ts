import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NetworkContext } from '../../../services/shared/network-registry.js';
import type { TxView } from '../../../services/transactions/tx-service.js';
import { html, type SafeHtml } from '../../shell/html.js';
import { apiLinks } from '../api-links.js';
import type { ExplorerDeps } from '../explorer-deps.js';
import { amount, badge, count, feeRate, hash, link, table, when } from '../format.js';
import { scriptLabel } from '../parts/tx/script-labels.js';
import { inputSource, payee } from '../parts/tx/tx-io.js';
import { signalsReplaceable, txScripts } from '../parts/tx/tx-scripts.js';
import { effectiveRateField } from '../parts/tx/tx-eta.js';
import { txFlow } from '../parts/tx/tx-flow.js';
import { txStatus, type TxStatusModel } from '../parts/tx/tx-status.js';
import { blockPath, inputPath, outputPath, txPath } from '../paths.js';

type Query = { part?: string; hex?: string; scripts?: string };

async function statusModel(deps: ExplorerDeps, view: TxView): Promise<TxStatusModel> {
  const inMempool = view.record.status === 'mempool';
  const inNodeMempool = inMempool && !view.peerOnly;
  const [confidence, conflicts, status, effective] = await Promise.all([
    inMempool ? deps.services.transactions.confidence.get(view.network.id, view.record.txid) : Promise.resolve(null),
    deps.services.transactions.reads.conflicts(view),
    inNodeMempool ? deps.chain.status(view.network.id) : Promise.resolve(null),
    inNodeMempool ? deps.services.transactions.effectiveRates.rateOf(view.network.id, view.record.txid) : Promise.resolve(null),
  ]);
  return { view, confidence, conflicts, projection: status?.mempool ?? null, effective };
}

function inputsTable(view: TxView): SafeHtml {
  const coin = view.network.params.coin;
  const net = view.network.id;
  const rows = view.inputs.map(
    (input) => html`<tr id="in-${String(input.index)}">
<td>${String(input.index)}</td>
<td>${inputSource(view, input)}</td>
<td>${input.coinbase ? '—' : link(outputPath(net, input.prevTxid, input.prevVout), html`${hash(input.prevTxid)}:${String(input.prevVout)}`)}</td>
<td class="num">${input.value !== null ? amount(input.value, coin) : '—'}</td>
</tr>`,
  );
  return table('Inputs', html`<tr><th scope="col">#</th><th scope="col">From</th><th scope="col">Spends output</th><th scope="col" class="num">Value</th></tr>`, rows);
}

function outputsTable(view: TxView): SafeHtml {
  const coin = view.network.params.coin;
  const net = view.network.id;
  const rows = view.outputs.map((output) => {
    const type = output.description.type;
    const mweb = view.tx.isHogEx ? (type === 'witness_mweb_hogaddr' ? badge('HogEx output', 'neutral') : badge('MWEB peg-out', 'neutral')) : type === 'witness_mweb_pegin' ? badge('MWEB peg-in', 'neutral') : '';
    return html`<tr id="out-${String(output.index)}">
<td>${String(output.index)}</td>
<td>${payee(view, output.description)} ${mweb}</td>
<td>${scriptLabel(type)} <span class="muted">${type}</span></td>
<td class="num">${amount(output.value, coin)}</td>
<td>${output.spentBy ? link(inputPath(net, output.spentBy.txid, output.spentBy.vin), html`${hash(output.spentBy.txid)}:${String(output.spentBy.vin)}`) : type === 'nulldata' ? html`<span class="muted">unspendable</span>` : html`<span class="muted">unspent</span>`}${output.spentBy && !output.spentBy.confirmed ? ' (unconfirmed)' : ''}</td>
</tr>`;
  });
  return table('Outputs', html`<tr><th scope="col">#</th><th scope="col">To</th><th scope="col">Type</th><th scope="col" class="num">Value</th><th scope="col">Spent by</th></tr>`, rows);
}

/** `/{net}/tx/{txid}`: live status, fees and sizes, every input and output, raw hex on demand (`?hex=1`). */
export async function txPage(deps: ExplorerDeps, network: NetworkContext, txid: string, request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply): Promise<FastifyReply> {
  const view = await deps.services.transactions.reads.get(network.id, txid);
  const model = await statusModel(deps, view);
  const now = deps.now();
  if (request.query.part === 'status') return deps.shell.fragment(request, reply, txStatus(model, now));
  const { record, tx } = view;
  const coin = network.params.coin;
  const inputsValue = view.inputs.reduce((sum, i) => sum + (i.value ?? 0n), 0n);
  const showHex = request.query.hex === '1';
  const base = txPath(network.id, record.txid);
  const labels = [tx.isCoinbase ? badge('Coinbase', 'neutral') : '', tx.isHogEx ? badge('MWEB HogEx', 'neutral') : '', tx.hasMwebBody ? badge('MWEB', 'neutral') : ''];
  const body = html`<h1>Transaction ${labels}</h1>
<div class="copy-line"><pre id="txid">${record.txid}</pre><button type="button" class="secondary" data-copy="txid" hidden>Copy</button></div>
${txStatus(model, now)}
<dl class="kv">
<dt>Network</dt><dd>${network.params.name}</dd>
<dt>${record.status === 'confirmed' ? 'Block time' : 'First seen'}</dt><dd>${when(record.time, now)}</dd>
${view.blockHash ? html`<dt>Block</dt><dd>${link(blockPath(network.id, view.blockHash), `${count(view.blockHeight!)}`)} <span class="muted">position ${String(record.position)}</span></dd>` : ''}
<dt>Fee</dt><dd>${tx.isCoinbase ? 'none (coinbase)' : html`${amount(view.fee, coin)} · ${feeRate(record.vsize > 0 ? Number(view.fee) / record.vsize : 0, coin)}`}</dd>
${model.effective ? effectiveRateField(model.effective, coin) : ''}
<dt>Inputs</dt><dd>${String(view.inputs.length)}${tx.isCoinbase ? '' : html` · ${amount(inputsValue, coin)}`}</dd>
<dt>Outputs</dt><dd>${String(view.outputs.length)} · ${amount(view.sentValue, coin)}</dd>
<dt>Size</dt><dd>${count(record.size)} bytes · ${count(record.vsize)} vbytes · weight ${count(record.weight)}</dd>
<dt>Version / locktime</dt><dd>${String(tx.version)} / ${String(tx.locktime)}</dd>
${tx.isCoinbase ? '' : html`<dt>Replaceable</dt><dd>${signalsReplaceable(view) ? html`${badge('replaceable', 'warn')} <span class="muted">signals BIP125: until it confirms, a version paying a higher fee may replace it</span>` : 'no (does not signal BIP125)'}</dd>`}
</dl>
<h2 id="flow">Flow</h2>
${txFlow(view)}
<h2 id="inputs">Inputs</h2>
${inputsTable(view)}
<h2 id="outputs">Outputs</h2>
${outputsTable(view)}
${txScripts(view, request.query.scripts === '1', base)}
<h2 id="raw">Raw transaction</h2>
${showHex
  ? html`<div class="copy-line"><pre id="raw-hex">${Buffer.from(view.raw).toString('hex')}</pre><button type="button" class="secondary" data-copy="raw-hex" hidden>Copy</button></div><p><a href="${base}#raw">Hide</a></p>`
  : html`<p><a href="${base}?hex=1#raw">Show the raw hex (${count(record.size)} bytes)</a></p>`}
${apiLinks(deps.publicUrl, [
  { label: 'v2 tx (display data)', path: `/api/v2/tx/${network.id}/${record.txid}` },
  { label: 'v2 get_tx', path: `/api/v2/get_tx/${network.id}/${record.txid}` },
  { label: 'v2 get_confidence', path: `/api/v2/get_confidence/${network.id}/${record.txid}` },
  { label: 'v3 transaction', path: `/api/v3/transaction/${network.id}/${record.txid}`, needsKey: true },
])}`;
  return deps.shell.page(request, reply, { title: `${network.params.name} transaction ${record.txid.slice(0, 16)}…`, body, live: true });
}
