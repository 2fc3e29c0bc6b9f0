import type { BlockSummary } from '../../../services/network/chain-summary-service.js';
import type { NetworkContext } from '../../../services/shared/network-registry.js';
import { html, type SafeHtml } from '../../shell/html.js';
import { ago, bytes, count, link, table } from '../format.js';
import { blockPath } from '../paths.js';
import { minerCell } from './miner.js';

/** Latest blocks: height, age, txs, size, miner (the coinbase tag, else the paid address, as realtime's mined_by). */
export function blocksTable(network: NetworkContext, blocks: readonly BlockSummary[], now: number, id?: string): SafeHtml {
  const head = html`<tr><th scope="col">Height</th><th scope="col">Time</th><th scope="col" class="num">Txs</th><th scope="col" class="num">Size</th><th scope="col">Miner</th></tr>`;
  const rows = blocks.map(
    ({ block, miner }) => html`<tr data-key="${block.hash}">
<td>${link(blockPath(network.id, block.hash), String(block.height))}</td>
<td>${ago(block.time, now)}</td>
<td class="num">${count(block.txCount)}</td>
<td class="num">${bytes(block.size)}</td>
<td>${minerCell(network.id, miner, true)}</td>
</tr>`,
  );
  return table(`Latest ${network.params.name} blocks`, head, rows, id);
}
