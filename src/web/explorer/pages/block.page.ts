import type { FastifyReply, FastifyRequest } from 'fastify';
import { formatDifficulty } from '../../../chains/block/difficulty.js';
import { blockMiner } from '../../../chains/parsing.js';
import { NotFoundError } from '../../../core/domain/errors.js';
import type { AuxPowParent } from '../../../services/blocks/auxpow-parent-service.js';
import type { BlockFeeRates } from '../../../services/blocks/block-fee-rates.js';
import type { BlockView } from '../../../services/blocks/block-service.js';
import type { NetworkContext } from '../../../services/shared/network-registry.js';
import type { TxView } from '../../../services/transactions/tx-service.js';
import { html, withQuery, type SafeHtml } from '../../shell/html.js';
import { apiLinks } from '../api-links.js';
import type { ExplorerDeps } from '../explorer-deps.js';
import { amount, badge, bytes, count, feeRate, hash, link, plural, table, when } from '../format.js';
import { feeHistogramChart, type HistogramOf } from '../parts/charts/mempool-charts.js';
import { minerCell } from '../parts/miner.js';
import { ioSummary } from '../parts/tx/tx-io.js';
import { mwebSummary } from '../parts/tx/mweb-summary.js';
import { pageNumber, pager } from '../pager.js';
import { blockPath, txPath } from '../paths.js';
import { blockchainChannel } from '../../../services/events/catalogue/event-channels.js';
import { syncStateOf } from '../sync-state.js';

export const BLOCK_TXS_PAGE = 25;

const BLOCK_HISTOGRAM: HistogramOf = { id: 'block-fee-histogram', what: 'vbytes of this block', table: 'This block by fee rate', empty: 'No tx paid a fee.' };

type Query = { page?: string; part?: string };

async function mainChainHashAt(deps: ExplorerDeps, view: BlockView): Promise<string | null> {
  try {
    return (await deps.services.blocks.reads.hashAt(view.network.id, String(view.block.height))).hash;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/** What the block page shows besides the block: one page of its txs, and what its parts need. */
interface BlockPageData {
  readonly view: BlockView;
  readonly page: number;
  readonly pages: number;
  readonly txs: TxView[];
  /** The coinbase (for the miner), the main-chain block at an orphan's height, the HogEx (MWEB), the AuxPoW parent. */
  readonly coinbase: TxView | null;
  readonly mainHash: string | null;
  readonly hogex: TxView | null;
  readonly auxpow: AuxPowParent | null;
  /** Span, median and histogram of the block's fee rates; null when no tx paid a fee. */
  readonly feeRates: BlockFeeRates | null;
}

/** The block, then everything else at once: the page's txs, the coinbase, the orphan's replacement, HogEx, AuxPoW. */
async function loadBlockPage(deps: ExplorerDeps, network: NetworkContext, id: string, pageParam: string | undefined): Promise<BlockPageData> {
  const view = await deps.services.blocks.reads.get(network.id, id);
  const { block } = view;
  const tx = (txid: string): Promise<TxView> => deps.services.transactions.reads.get(network.id, txid, { spenders: false });
  const pages = Math.max(1, Math.ceil(block.txids.length / BLOCK_TXS_PAGE));
  const page = Math.min(pageNumber(pageParam), pages);
  const slice = block.txids.slice((page - 1) * BLOCK_TXS_PAGE, page * BLOCK_TXS_PAGE);
  const last = block.txids[block.txids.length - 1];
  const [txs, coinbase, mainHash, hogex, auxpow, feeRates] = await Promise.all([
    Promise.all(slice.map(tx)),
    block.txids[0] ? tx(block.txids[0]) : null,
    block.isOrphan ? mainChainHashAt(deps, view) : null,
    network.params.features.mweb && last && block.txids.length > 1 ? tx(last) : null,
    deps.services.blocks.auxpow.parentOf(network, block),
    deps.services.blocks.feeRates.ratesOf(network.id, block),
  ]);
  return { view, page, pages, txs, coinbase, mainHash, hogex, auxpow, feeRates };
}

/** `/{net}/block/{hash|height}`: header fields, reward and fees, miner, MWEB or AuxPoW part, the txs 25 a page. */
export async function blockPage(deps: ExplorerDeps, network: NetworkContext, id: string, request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply): Promise<FastifyReply> {
  const part = request.query.part;
  if (part === 'confirmations' || part === 'next') {
    const view = await deps.services.blocks.reads.get(network.id, id);
    return deps.shell.fragment(request, reply, part === 'confirmations' ? liveConfirmations(network, view) : liveNext(network, view));
  }
  let data: BlockPageData;
  try {
    data = await loadBlockPage(deps, network, id, request.query.page);
  } catch (error) {
    const above = error instanceof NotFoundError ? await aboveTip(deps, network, id) : null;
    if (above) return deps.shell.errorPage(request, reply, 404, 'Block not found', above, id);
    throw error;
  }
  const { block } = data.view;
  const now = deps.now();
  const body = html`<div class="title-row"><h1>Block ${count(block.height)} ${block.isOrphan ? badge('Orphaned', 'bad') : ''}</h1>${prevNextArrows(network, block)}</div>
${block.isOrphan ? orphanBanner(network, block.height, data.mainHash) : ''}
${blockFields(network, data, now)}
${data.auxpow ? auxpowSection(data.auxpow, now) : ''}
${data.hogex?.tx.isHogEx ? mwebSummary(data.hogex) : ''}
${data.feeRates ? html`<h2 id="fee-rates">Fee rates</h2>${feeHistogramChart(network, data.feeRates.histogram, BLOCK_HISTOGRAM)}` : ''}
${txSection(network, data)}
${apiLinks(deps.publicUrl, [
  { label: 'v2 block (display data)', path: `/api/v2/block/${network.id}/${block.hash}` },
  { label: 'v2 get_block', path: `/api/v2/get_block/${network.id}/${block.hash}` },
  { label: 'v3 block', path: `/api/v3/block/${network.id}/${block.hash}`, needsKey: true },
])}`;
  return deps.shell.page(request, reply, { title: `${network.params.name} block ${block.height}`, body, live: !block.isOrphan });
}

/** The API's 8-decimal string; below 1e-8 (regtest) that is all zeros, so the exact value follows (docs/spec-deviations.md). */
function difficultyText(value: number): string {
  const api = formatDifficulty(value);
  return value > 0 && value < 1e-8 ? `${api} (exactly ${value.toPrecision(3)})` : api;
}

/** A height above the tip: say so, with both heights, and offer the tip (null: not that case). */
async function aboveTip(deps: ExplorerDeps, network: NetworkContext, id: string): Promise<SafeHtml | null> {
  if (!/^\d{1,10}$/.test(id)) return null;
  const sync = await syncStateOf(deps, network);
  if (sync.kind !== 'ready' || Number(id) <= sync.tip.height) return null;
  return html`Height ${count(Number(id))} is above the tip of ${network.params.name} (height ${count(sync.tip.height)}): no such block yet. The newest is ${link(blockPath(network.id, sync.tip.hash), `block ${count(sync.tip.height)}`)}.`;
}

/** ← previous and next → beside the title (the next one once there is one). */
function prevNextArrows(network: NetworkContext, block: BlockView['block']): SafeHtml {
  const prev = block.height > 0 ? html`<a class="arrow" href="${blockPath(network.id, block.prevHash)}" rel="prev" aria-label="Previous block (${count(block.height - 1)})">←</a>` : '';
  const next = block.nextHash ? html`<a class="arrow" href="${blockPath(network.id, block.nextHash)}" rel="next" aria-label="Next block (${count(block.height + 1)})">→</a>` : '';
  return html`<nav class="arrows" aria-label="Neighbouring blocks">${prev}${next}</nav>`;
}

/** Confirmations, refreshed on each block (a page left open does not go stale). */
function liveConfirmations(network: NetworkContext, view: BlockView): SafeHtml {
  return html`<span id="block-confirmations" data-live-on="${blockchainChannel(network.id)}:block_update" data-live-src="${blockPath(network.id, view.block.hash)}?part=confirmations">${count(view.confirmations)}</span>`;
}

/** The next block's link, live: "none yet" turns into the link when it arrives. */
function liveNext(network: NetworkContext, view: BlockView): SafeHtml {
  const next = view.block.nextHash;
  return html`<span id="block-next" data-live-on="${blockchainChannel(network.id)}:block_update" data-live-src="${blockPath(network.id, view.block.hash)}?part=next">${next ? link(blockPath(network.id, next), hash(next)) : html`<span class="muted">none yet</span>`}</span>`;
}

function orphanBanner(network: NetworkContext, height: number, mainHash: string | null): SafeHtml {
  return html`<p class="banner bad" role="status">This block is not part of the main chain (a reorganisation replaced it). ${
    mainHash ? html`The main-chain block at height ${String(height)} is ${link(blockPath(network.id, mainHash), hash(mainHash))}.` : `No main-chain block has height ${height} yet.`
  }</p>`;
}

/** The header and summary fields. */
function blockFields(network: NetworkContext, data: BlockPageData, now: number): SafeHtml {
  const { view, coinbase } = data;
  const { block } = view;
  const coin = network.params.coin;
  return html`<dl class="kv">
<dt>Hash</dt><dd>${hash(block.hash)}</dd>
<dt>Network</dt><dd>${network.params.name}</dd>
<dt>Confirmations</dt><dd>${block.isOrphan ? count(view.confirmations) : liveConfirmations(network, view)}</dd>
<dt>Time</dt><dd>${when(block.time, now)}</dd>
<dt>Miner</dt><dd>${minerCell(network.id, coinbase ? blockMiner(network.params, coinbase.tx) : null)}</dd>
<dt>Reward (subsidy and fees)</dt><dd>${amount(block.reward, coin)}</dd>
<dt>Fees</dt><dd>${amount(block.fees, coin)}</dd>
<dt>Fee rates</dt><dd>${data.feeRates ? html`${feeRate(data.feeRates.min, coin)} – ${feeRate(data.feeRates.max, coin)}, median ${feeRate(data.feeRates.median, coin)} <span class="muted">(${plural(data.feeRates.txs, 'tx')} paying a fee)</span>` : html`<span class="muted">no tx paid a fee</span>`}</dd>
<dt>Value out</dt><dd>${amount(block.valueOut, coin)}</dd>
<dt>Transactions</dt><dd>${count(block.txCount)}</dd>
<dt>Size</dt><dd>${bytes(block.size)} (${count(block.size)} bytes; stripped ${count(block.strippedSize)}; weight ${count(block.weight)})</dd>
<dt>Difficulty</dt><dd>${difficultyText(view.difficulty)}</dd>
<dt>Bits</dt><dd class="mono">${block.bits.toString(16).padStart(8, '0')}</dd>
<dt>Nonce</dt><dd>${String(block.nonce)}</dd>
<dt>Version</dt><dd class="mono">0x${(block.version >>> 0).toString(16).padStart(8, '0')}</dd>
<dt>Merkle root</dt><dd>${hash(block.merkleRoot)}</dd>
<dt>Previous block</dt><dd>${block.height > 0 ? link(blockPath(network.id, block.prevHash), hash(block.prevHash)) : 'none (genesis)'}</dd>
<dt>Next block</dt><dd>${block.isOrphan ? html`<span class="muted">none (orphaned)</span>` : liveNext(network, view)}</dd>
</dl>`;
}

function auxpowSection(auxpow: AuxPowParent, now: number): SafeHtml {
  return html`<section aria-labelledby="auxpow-title"><h2 id="auxpow-title">Merge-mined (AuxPoW)</h2>
<dl class="kv"><dt>Parent block</dt><dd>${hash(auxpow.hash)}</dd><dt>Parent time</dt><dd>${when(auxpow.time, now)}</dd>
<dt>Chain id</dt><dd class="mono">0x${auxpow.chainId.toString(16)}</dd>${auxpow.coinbaseTag ? html`<dt>Parent coinbase</dt><dd><span class="hash">${auxpow.coinbaseTag}</span></dd>` : ''}</dl></section>`;
}

/** The page's txs, numbered by position in the block, and the pager. */
function txSection(network: NetworkContext, data: BlockPageData): SafeHtml {
  const { page, pages } = data;
  const base = blockPath(network.id, data.view.block.hash);
  const pageLink = (n: number): string => (n === 1 ? base : withQuery(base, { page: n }));
  const rows = data.txs.map((tx, i) => txRow(network, tx, (page - 1) * BLOCK_TXS_PAGE + i));
  return html`<h2 id="txs">Transactions ${pages > 1 ? html`<span class="muted">(page ${String(page)} of ${String(pages)})</span>` : ''}</h2>
${table('Transactions in this block', html`<tr><th scope="col">#</th><th scope="col">Transaction</th><th scope="col">Inputs</th><th scope="col">Outputs</th><th scope="col" class="num">Fee</th></tr>`, rows)}
${pages > 1 ? pager('Transaction pages', [
  { label: 'First', href: page > 1 ? pageLink(1) : null },
  { label: 'Previous', href: page > 1 ? pageLink(page - 1) : null, rel: 'prev' },
  { label: 'Next', href: page < pages ? pageLink(page + 1) : null, rel: 'next' },
  { label: 'Last', href: page < pages ? pageLink(pages) : null },
]) : ''}`;
}

function txRow(network: NetworkContext, tx: TxView, position: number): SafeHtml {
  const labels = [tx.tx.isCoinbase ? badge('Coinbase', 'neutral') : '', tx.tx.isHogEx ? badge('HogEx', 'neutral') : ''];
  return html`<tr>
<td>${String(position)}</td>
<td>${link(txPath(network.id, tx.record.txid), hash(tx.record.txid))} ${labels}</td>
<td>${ioSummary(tx, 'in')}</td>
<td>${ioSummary(tx, 'out')}</td>
<td class="num">${tx.tx.isCoinbase ? '—' : amount(tx.fee, network.params.coin)}</td>
</tr>`;
}
