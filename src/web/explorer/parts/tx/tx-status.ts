import type { MempoolProjection } from '../../../../services/network/mempool-projector.js';
import type { TxConfidence } from '../../../../services/transactions/confidence-service.js';
import type { EffectiveFeeRate } from '../../../../services/transactions/effective-fee-rate.js';
import { COINBASE_CONFIRMATIONS } from '../../../../services/shared/confirmations.js';
import type { TxConflict, TxView } from '../../../../services/transactions/tx-service.js';
import { html, type SafeHtml } from '../../../shell/html.js';
import { count, hash, link, when } from '../../format.js';
import { blockPath, txPath } from '../../paths.js';
import { addressChannel, blockchainChannel } from '../../../../services/events/catalogue/event-channels.js';
import { confidenceMeaning, txEta } from './tx-eta.js';

export interface TxStatusModel {
  readonly view: TxView;
  /** null for confirmed txs (the API's confidence is 1 then). */
  readonly confidence: TxConfidence | null;
  readonly conflicts: readonly TxConflict[];
  /** The mempool projection, for a tx in the mempool (its place and ETA); null otherwise. */
  readonly projection: MempoolProjection | null;
  /** Its fee rate with its in-mempool relatives (CPFP), from the node; null when not known. */
  readonly effective: EffectiveFeeRate | null;
}

/** Input addresses watched for competing spends: a replacement or double spend spends the same outputs. */
const WATCHED_ADDRESSES = 8;

function conflictLinks(model: TxStatusModel): SafeHtml {
  const seen = [...new Map(model.conflicts.map((c) => [c.txid, c])).values()];
  const state = (c: TxConflict): string => (c.confirmed ? 'confirmed' : c.peerOnly ? 'unconfirmed, relayed by peers' : 'unconfirmed');
  return html`${seen.map((c, i) => html`${i > 0 ? ', ' : ''}${link(txPath(model.view.network.id, c.txid), hash(c.txid))} (${state(c)})`)}`;
}

function statusBanner(model: TxStatusModel, now: number): SafeHtml {
  const { view, confidence, conflicts } = model;
  const { record } = view;
  const net = view.network.id;
  switch (record.status) {
    case 'confirmed':
      return html`<p class="banner ok"><strong>Confirmed</strong> · <span id="tx-confirmations">${count(view.confirmations)}</span> confirmation${view.confirmations === 1 ? '' : 's'} · in block ${link(blockPath(net, record.blockHash!), String(record.height))}</p>`;
    case 'orphaned':
      return html`<p class="banner bad"><strong>Not in the main chain.</strong> It was only in ${link(blockPath(net, record.blockHash!), 'an orphaned block')}; 0 confirmations.</p>`;
    case 'removed':
      return html`<p class="banner bad"><strong>${record.doubleSpent ? 'Double-spent' : 'Replaced'}.</strong> This transaction ${view.peerOnly ? 'was relayed by peers only' : 'left the mempool'} and will not confirm${
        conflicts.length > 0 ? html`: its coins are spent by ${conflictLinks(model)}` : ''
      }.</p>`;
    case 'mempool':
      // The live verdict (index and P2P peers), not the stored flag: a replacement keeps that after its rival left.
      if (confidence?.isDoubleSpend) {
        return html`<p class="banner bad"><strong>Double spend detected.</strong> Another transaction spends the same coins${conflicts.length > 0 ? html`: ${conflictLinks(model)}` : ''}. Confidence 0.</p>`;
      }
      return html`<p class="banner warn"><strong>Unconfirmed</strong> · ${
        view.peerOnly ? html`relayed by peers, not in our node's mempool, first seen ${when(record.time, now)}` : html`in the mempool since ${when(record.seenAt ?? record.time, now)}`
      } · confidence ${confidence ? confidence.confidence.toFixed(2) : '—'}${seenBy(confidence)}</p>`;
  }
}

/** Whose evidence the confidence rests on: how many P2P peers announced the tx, or our own node alone. */
function seenBy(confidence: TxConfidence | null): SafeHtml {
  if (confidence?.model === 'local') return html` · <span class="muted">from our node alone (no P2P peer sampled it)</span>`;
  if (confidence?.model !== 'network') return html``;
  const peers = confidence.nodesSampled ?? 0;
  return html` · announced by ${count(confidence.nodes ?? 0)} of ${count(peers)} peer${peers === 1 ? '' : 's'}`;
}

function maturity(view: TxView): SafeHtml {
  if (!view.tx.isCoinbase || view.record.status !== 'confirmed') return html``;
  const mature = view.network.params.coinbaseMaturity;
  const spendable = view.confirmations >= mature;
  return html`<p>Coinbase: ${spendable ? 'mature, its outputs are spendable' : `spendable after ${mature} confirmations (${mature - view.confirmations} to go)`}. ${
    view.isConfirmed ? 'The API reports it confirmed.' : `The API reports it confirmed at ${COINBASE_CONFIRMATIONS} confirmations (${COINBASE_CONFIRMATIONS - view.confirmations} to go).`
  }</p>`;
}

/** Status of a tx as a live region: new blocks (confirmations) and spends of its inputs' addresses (conflicts) refresh it. */
export function txStatus(model: TxStatusModel, now: number): SafeHtml {
  const { view } = model;
  const net = view.network.id;
  const topics = [`${blockchainChannel(net)}:block_update`];
  if (view.record.status !== 'confirmed') {
    const addresses = [...new Set(view.inputs.flatMap((i) => (i.prevDescription?.address ? [i.prevDescription.address] : [])))];
    for (const address of addresses.slice(0, WATCHED_ADDRESSES)) {
      topics.push(`${addressChannel(net, address)}:balance_update`, `${addressChannel(net, address)}:double_spend`);
    }
  }
  return html`<div id="tx-status" role="status" data-live-on="${topics.join(' ')}" data-live-src="${txPath(net, view.record.txid)}?part=status">
${statusBanner(model, now)}${maturity(view)}${model.projection && view.record.status === 'mempool' && !model.confidence?.isDoubleSpend ? html`${txEta(view, model.projection, model.effective)}${confidenceMeaning(view)}` : ''}
</div>`;
}
