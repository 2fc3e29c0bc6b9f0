import type { TxInputView, TxOutputView, TxView } from '../../../../services/transactions/tx-service.js';
import { html, type SafeHtml } from '../../../shell/html.js';
import { amount, hash, link, plural } from '../../format.js';
import { addressPath, txPath } from '../../paths.js';
import { scriptLabel } from './script-labels.js';

/** Inputs and outputs listed per tx in block pages; the tx page lists all of them. */
const SUMMARY_ITEMS = 4;

/** Who an output pays, as a link when it has an address, else its type. */
export function payee(view: TxView, script: { address: string | null; type: Parameters<typeof scriptLabel>[0] }): SafeHtml {
  if (script.address) return link(addressPath(view.network.id, script.address), hash(script.address));
  return html`<span class="muted">${scriptLabel(script.type)}</span>`;
}

export function inputSource(view: TxView, input: TxInputView): SafeHtml {
  if (input.coinbase) return html`<span class="badge neutral">Coinbase</span> <span class="muted">new coins</span>`;
  if (!input.prevDescription) return html`<span class="muted">unknown output</span>`;
  return payee(view, input.prevDescription);
}

/** Ownership-free summary of one side of a tx: the first few lines and how many more. */
export function ioSummary(view: TxView, side: 'in' | 'out'): SafeHtml {
  const coin = view.network.params.coin;
  const items: readonly (TxInputView | TxOutputView)[] = side === 'in' ? view.inputs : view.outputs;
  const shown = items.slice(0, SUMMARY_ITEMS).map((item) => {
    if ('coinbase' in item) {
      return html`<li>${inputSource(view, item)}${item.value !== null ? html` ${amount(item.value, coin)}` : ''}</li>`;
    }
    return html`<li>${payee(view, item.description)} ${amount(item.value, coin)}</li>`;
  });
  const more = items.length - SUMMARY_ITEMS;
  return html`<ul class="io">${shown}${more > 0 ? html`<li><a href="${txPath(view.network.id, view.record.txid)}#${side === 'in' ? 'inputs' : 'outputs'}">${plural(more, side === 'in' ? 'more input' : 'more output')}</a></li>` : ''}</ul>`;
}
