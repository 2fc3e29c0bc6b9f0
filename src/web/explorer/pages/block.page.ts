import type { FastifyReply, FastifyRequest } from 'fastify';
import { blockMiner } from '../../../chains/parsing.js';
import { NotFoundError } from '../../../core/domain/errors.js';
import type { BlockView } from '../../../services/blocks/block-service.js';
import type { NetworkContext } from '../../../services/shared/network-registry.js';
import type { TxView } from '../../../services/transactions/tx-service.js';
import { html, withQuery, type SafeHtml } from '../../shell/html.js';
import { apiLinks } from '../api-links.js';
import type { ExplorerDeps } from '../explorer-deps.js';
import { amount, badge, bytes, count, hash, link, table, when } from '../format.js';
import { minerCell } from '../parts/miner.js';
import { ioSummary } from '../parts/tx-io.js';
import { mwebSummary } from '../parts/mweb-summary.js';
import { pageNumber, pager } from '../pager.js';
import { blockPath, txPath } from '../paths.js';

export const BLOCK_TXS_PAGE = 25;

type Query = { page?: string };

async function mainChainHashAt(deps: ExplorerDeps, view: BlockView): Promise<string | null> {
  try {
    return (await deps.services.blocks.reads.hashAt(view.network.id, String(view.block.height))).hash;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/** `/{net}/block/{hash|height}`: header fields, reward and fees, miner, MWEB or AuxPoW part, the txs 25 a page. */
export async function blockPage(deps: ExplorerDeps, network: NetworkContext, id: string, request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply): Promise<FastifyReply> {
  const view = await deps.services.blocks.reads.get(network.id, id);
  const { block } = view;
  const coin = network.params.coin;
  const pages = Math.max(1, Math.ceil(block.txids.length / BLOCK_TXS_PAGE));
  const page = Math.min(pageNumber(request.query.page), pages);
  const slice = block.txids.slice((page - 1) * BLOCK_TXS_PAGE, page * BLOCK_TXS_PAGE);
  const last = block.txids[block.txids.length - 1];
  const [txs, coinbase, mainHash, hogex, auxpow] = await Promise.all([
    Promise.all(slice.map((txid) => deps.services.transactions.reads.get(network.id, txid, { spenders: false }))),
    block.txids[0] ? deps.services.transactions.reads.get(network.id, block.txids[0], { spenders: false }) : Promise.resolve(null),
    block.isOrphan ? mainChainHashAt(deps, view) : Promise.resolve(null),
    network.params.features.mweb && last && block.txids.length > 1 ? deps.services.transactions.reads.get(network.id, last, { spenders: false }) : Promise.resolve(null),
    deps.services.blocks.auxpow.parentOf(network, block),
  ]);
  const now = deps.now();
  const base = blockPath(network.id, block.hash);
  const pageLink = (n: number): string => (n === 1 ? base : withQuery(base, { page: n }));
  const txRows = txs.map((tx, i) => txRow(tx, (page - 1) * BLOCK_TXS_PAGE + i));
  const body = html`<h1>Block ${count(block.height)} ${block.isOrphan ? badge('Orphaned', 'bad') : ''}</h1>
${block.isOrphan ? html`<p class="banner bad" role="status">This block is not part of the main chain (a reorganisation replaced it). ${
  mainHash ? html`The main-chain block at height ${String(block.height)} is ${link(blockPath(network.id, mainHash), hash(mainHash))}.` : `No main-chain block has height ${block.height} yet.`
}</p>` : ''}
<dl class="kv">
<dt>Hash</dt><dd>${hash(block.hash)}</dd>
<dt>Network</dt><dd>${network.params.name}</dd>
<dt>Confirmations</dt><dd>${count(view.confirmations)}</dd>
<dt>Time</dt><dd>${when(block.time, now)}</dd>
<dt>Miner</dt><dd>${minerCell(network.id, coinbase ? blockMiner(network.params, coinbase.tx) : null)}</dd>
<dt>Reward (subsidy and fees)</dt><dd>${amount(block.reward, coin)}</dd>
<dt>Fees</dt><dd>${amount(block.fees, coin)}</dd>
<dt>Value out</dt><dd>${amount(block.valueOut, coin)}</dd>
<dt>Transactions</dt><dd>${count(block.txCount)}</dd>
<dt>Size</dt><dd>${bytes(block.size)} (${count(block.size)} bytes; stripped ${count(block.strippedSize)}; weight ${count(block.weight)})</dd>
<dt>Difficulty</dt><dd>${String(view.difficulty)}</dd>
<dt>Bits</dt><dd class="mono">${block.bits.toString(16).padStart(8, '0')}</dd>
<dt>Nonce</dt><dd>${String(block.nonce)}</dd>
<dt>Version</dt><dd class="mono">0x${(block.version >>> 0).toString(16).padStart(8, '0')}</dd>
<dt>Merkle root</dt><dd>${hash(block.merkleRoot)}</dd>
<dt>Previous block</dt><dd>${block.height > 0 ? link(blockPath(network.id, block.prevHash), hash(block.prevHash)) : 'none (genesis)'}</dd>
<dt>Next block</dt><dd>${block.nextHash ? link(blockPath(network.id, block.nextHash), hash(block.nextHash)) : html`<span class="muted">none yet</span>`}</dd>
</dl>
${auxpow ? html`<section aria-labelledby="auxpow-title"><h2 id="auxpow-title">Merge-mined (AuxPoW)</h2>
<dl class="kv"><dt>Parent block</dt><dd>${hash(auxpow.hash)}</dd><dt>Parent time</dt><dd>${when(auxpow.time, now)}</dd>
<dt>Chain id</dt><dd class="mono">0x${auxpow.chainId.toString(16)}</dd>${auxpow.coinbaseTag ? html`<dt>Parent coinbase</dt><dd><span class="hash">${auxpow.coinbaseTag}</span></dd>` : ''}</dl></section>` : ''}
${hogex?.tx.isHogEx ? mwebSummary(hogex) : ''}
<h2 id="txs">Transactions ${pages > 1 ? html`<span class="muted">(page ${String(page)} of ${String(pages)})</span>` : ''}</h2>
${table('Transactions in this block', html`<tr><th scope="col">#</th><th scope="col">Transaction</th><th scope="col">Inputs</th><th scope="col">Outputs</th><th scope="col" class="num">Fee</th></tr>`, txRows)}
${pages > 1 ? pager('Transaction pages', [
  { label: 'First', href: page > 1 ? pageLink(1) : null },
  { label: 'Previous', href: page > 1 ? pageLink(page - 1) : null, rel: 'prev' },
  { label: 'Next', href: page < pages ? pageLink(page + 1) : null, rel: 'next' },
  { label: 'Last', href: page < pages ? pageLink(pages) : null },
]) : ''}
${apiLinks(deps.publicUrl, [
  { label: 'v2 block (display data)', path: `/api/v2/block/${network.id}/${block.hash}` },
  { label: 'v2 get_block', path: `/api/v2/get_block/${network.id}/${block.hash}` },
  { label: 'v3 block', path: `/api/v3/block/${network.id}/${block.hash}`, needsKey: true },
])}`;
  return deps.shell.page(request, reply, { title: `${network.params.name} block ${block.height}`, body });

  function txRow(tx: TxView, position: number): SafeHtml {
    const labels = [tx.tx.isCoinbase ? badge('Coinbase', 'neutral') : '', tx.tx.isHogEx ? badge('HogEx', 'neutral') : ''];
    return html`<tr>
<td>${String(position)}</td>
<td>${link(txPath(network.id, tx.record.txid), hash(tx.record.txid))} ${labels}</td>
<td>${ioSummary(tx, 'in')}</td>
<td>${ioSummary(tx, 'out')}</td>
<td class="num">${tx.tx.isCoinbase ? '—' : amount(tx.fee, coin)}</td>
</tr>`;
  }
}
