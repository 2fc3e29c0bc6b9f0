/**
 * A transaction as a flow: its inputs on the left, its outputs on the right, each a box with who and how much, joined
 * through the middle by bands as wide as their share of the value (server-drawn SVG, colours from the stylesheet).
 * At most FLOW_ITEMS a side; the rest is one "N more" box. The tables below list every one.
 */
import { formatCoins } from '../../../../core/domain/money.js';
import type { TxView } from '../../../../services/transactions/tx-service.js';
import { html, type SafeHtml } from '../../../shell/html.js';
import { plural } from '../../format.js';
import { scriptLabel } from './script-labels.js';

const FLOW_ITEMS = 8;
const WIDTH = 640;
const BOX_W = 220;
const ROW = 36;
const MAX_BAND = 24;

interface FlowItem {
  readonly key: string;
  readonly label: string;
  /** Base units; null when unknown (an input whose prevout we do not have). */
  readonly value: bigint | null;
}

function shorten(text: string): string {
  return text.length > 20 ? `${text.slice(0, 9)}…${text.slice(-8)}` : text;
}

function limited(items: readonly FlowItem[], side: 'in' | 'out'): FlowItem[] {
  if (items.length <= FLOW_ITEMS) return [...items];
  const rest = items.slice(FLOW_ITEMS - 1);
  const known = rest.every((i) => i.value !== null);
  return [...items.slice(0, FLOW_ITEMS - 1), { key: `${side}-more`, label: plural(rest.length, side === 'in' ? 'more input' : 'more output'), value: known ? rest.reduce((s, i) => s + i.value!, 0n) : null }];
}

export function txFlow(view: TxView): SafeHtml {
  const coin = view.network.params.coin;
  const inputs = limited(view.inputs.map((i) => ({
    key: `in-${i.index}`,
    label: i.coinbase ? 'Coinbase (new coins)' : i.prevDescription?.address ? shorten(i.prevDescription.address) : i.prevDescription ? scriptLabel(i.prevDescription.type) : 'unknown output',
    value: i.value,
  })), 'in');
  const outputs = limited(view.outputs.map((o) => ({
    key: `out-${o.index}`,
    label: o.description.address ? shorten(o.description.address) : scriptLabel(o.description.type),
    value: o.value,
  })), 'out');
  const total = [...inputs, ...outputs].reduce((m, i) => (i.value !== null && i.value > m ? i.value : m), 1n);
  const rows = Math.max(inputs.length, outputs.length);
  const height = rows * ROW + 8;
  const midX = WIDTH / 2;
  const midY = height / 2;
  const band = (value: bigint | null): number => (value === null ? 1.5 : Math.max(1.5, (Number(value) / Number(total)) * MAX_BAND));
  const top = (count: number, i: number): number => 4 + ((rows - count) * ROW) / 2 + i * ROW;
  const side = (items: readonly FlowItem[], left: boolean): SafeHtml[] => items.map((item, i) => {
    const y = top(items.length, i);
    const x = left ? 0 : WIDTH - BOX_W;
    const edge = left ? BOX_W : WIDTH - BOX_W;
    const cy = y + (ROW - 6) / 2;
    const amount = item.value === null ? 'value unknown' : `${formatCoins(item.value)} ${coin}`;
    return html`<g class="flow-item" data-key="${item.key}"><title>${item.label}: ${amount}</title>
<path class="flow-band" d="M${edge} ${cy.toFixed(1)} C${midX} ${cy.toFixed(1)} ${midX} ${midY.toFixed(1)} ${midX} ${midY.toFixed(1)}" stroke-width="${band(item.value).toFixed(1)}"/>
<rect class="frame" x="${x}" y="${y}" width="${BOX_W}" height="${ROW - 6}" rx="4"/>
<text class="tick" x="${x + 8}" y="${y + 12}">${item.label}</text>
<text class="label" x="${x + BOX_W - 8}" y="${y + 25}" text-anchor="end">${amount}</text></g>`;
  });
  return html`<figure class="chart tx-flow">
<svg viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="tx-flow-title" focusable="false">
<title id="tx-flow-title">${plural(view.inputs.length, 'input')} flowing into ${plural(view.outputs.length, 'output')}</title>
${side(inputs, true)}${side(outputs, false)}
</svg>
<figcaption>Inputs on the left, outputs on the right; each band is as wide as its share of the largest value${view.tx.isCoinbase ? '' : '; the difference is the fee'}.</figcaption>
</figure>`;
}
