import type { MempoolProjection } from '../../../../services/network/mempool-projector.js';
import type { TxView } from '../../../../services/transactions/tx-service.js';
import { html, type SafeHtml } from '../../../shell/html.js';
import type { CoinId } from '../../../../core/domain/network.js';
import type { EffectiveFeeRate } from '../../../../services/transactions/effective-fee-rate.js';
import { feeRate, plural } from '../../format.js';
import { mempoolPath } from '../../paths.js';

/** The tx's own fee rate (base units per vbyte). */
export function ownFeeRate(view: TxView): number {
  return view.record.vsize > 0 ? Number(view.fee) / view.record.vsize : 0;
}

/**
 * Which projected block a mempool tx falls in: blocks are filled from the highest rates down, so it is the first block
 * whose lowest rate its rate reaches (null: beyond the projected blocks); the effective (CPFP) rate where the node
 * gave it, else its own.
 */
export function projectedPosition(rate: number, projection: MempoolProjection): number | null {
  const blocks = projection.blocks.filter((b) => b.numTxs > 0);
  for (const b of blocks) if (rate >= b.minFeeRate) return b.blockNum;
  return null;
}

function minutes(seconds: number): string {
  return seconds < 5_400 ? `~${Math.max(1, Math.round(seconds / 60))} min` : `~${Math.round(seconds / 3_600)} h`;
}

/** "In the next block (~2 min)" or "beyond the next 6 blocks", with its fee rate; a line under the status banner. */
export function txEta(view: TxView, projection: MempoolProjection, effective: EffectiveFeeRate | null): SafeHtml {
  const rate = effective?.effective ?? ownFeeRate(view);
  const position = projectedPosition(rate, projection);
  const spacing = view.network.params.targetSpacing;
  const where = position === null
    ? html`beyond the ${projection.blocks.length} projected blocks`
    : html`${position === 1 ? 'the next block' : `block +${position}`} (${minutes(position * spacing)} at one block every ${spacing < 120 ? `${spacing} s` : `${spacing / 60} min`})`;
  return html`<p class="eta">At ${feeRate(rate, view.network.params.coin)}${effective ? ' (effective)' : ''} it is projected into ${where}; see the <a href="${mempoolPath(view.network.id)}">mempool</a>.</p>`;
}

/** The fee rate mining uses with the tx's unconfirmed relatives, and who they are (a field of the tx page). */
export function effectiveRateField(effective: EffectiveFeeRate, coin: CoinId): SafeHtml {
  const relatives = [
    effective.ancestors > 0 ? plural(effective.ancestors, 'unconfirmed ancestor') : '',
    effective.descendants > 0 ? plural(effective.descendants, 'descendant') : '',
  ].filter(Boolean).join(' and ');
  return html`<dt>Effective fee rate</dt><dd>${feeRate(effective.effective, coin)} <span class="muted">${relatives ? `with ${relatives} (CPFP: mining takes the package together)` : 'no unconfirmed relatives: its own rate'}</span></dd>`;
}

/** What the confidence figure means, in one line, with the JSON the figure comes from. */
export function confidenceMeaning(view: TxView): SafeHtml {
  return html`<p class="muted small">Confidence is our estimate, from 0 to 1, that this transaction will confirm: from how many peers announced it, how long it has waited, its fee and inputs; a double spend makes it 0 (<a href="/api/v2/get_confidence/${view.network.id}/${view.record.txid}">the evidence, as JSON</a>).</p>`;
}
