import { scriptToAsm } from '../../../../chains/addressing.js';
import type { TxView } from '../../../../services/transactions/tx-service.js';
import { html, type SafeHtml } from '../../../shell/html.js';
import { scriptLabel } from './script-labels.js';

/** BIP125: an input whose sequence is below this signals that the tx may be replaced (opt-in RBF). */
const RBF_BELOW = 0xfffffffe;

/** Whether the tx signals replaceability (BIP125: any input with a sequence below 0xfffffffe). */
export function signalsReplaceable(view: TxView): boolean {
  return !view.tx.isCoinbase && view.inputs.some((i) => i.sequence < RBF_BELOW);
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const sequenceText = (sequence: number): string => `0x${sequence.toString(16).padStart(8, '0')}${sequence < RBF_BELOW ? ' (signals replaceability)' : ''}`;

/**
 * Every input's sequence, scriptSig (ASM, signatures with their sighash type as Core shows them; a coinbase's as hex)
 * and witness items, every output's script as ASM with its type. Collapsed by default, and not even sent until asked
 * for (`?scripts=1`, a plain link as the raw hex is): signatures and witnesses would double a tx page's bytes, and most
 * readers want the amounts (bench:web's compressed tx page fell from 58 % to 46 % of its JSON route with them inline).
 */
export function txScripts(view: TxView, shown: boolean, base: string): SafeHtml {
  if (!shown) return html`<p id="scripts"><a href="${base}?scripts=1#scripts">Show scripts, sequences and witnesses</a></p>`;
  return html`<details class="scripts" id="scripts" open><summary>Scripts, sequences and witnesses</summary>
${view.inputs.map((input) => html`<section class="script-item" aria-labelledby="script-in-${String(input.index)}"><h3 id="script-in-${String(input.index)}">Input ${String(input.index)}</h3>
<dl class="kv">
<dt>Sequence</dt><dd class="mono">${sequenceText(input.sequence)}</dd>
<dt>scriptSig</dt><dd><code class="asm">${input.scriptSig.length === 0 ? '(empty)' : input.coinbase ? hex(input.scriptSig) : scriptToAsm(input.scriptSig, { sighashDecode: true })}</code></dd>
${input.witness.length > 0 ? html`<dt>Witness</dt><dd><ol class="witness">${input.witness.map((item) => html`<li><code class="asm">${item.length === 0 ? '(empty)' : hex(item)}</code></li>`)}</ol></dd>` : ''}
</dl></section>`)}
${view.outputs.map((output) => html`<section class="script-item" aria-labelledby="script-out-${String(output.index)}"><h3 id="script-out-${String(output.index)}">Output ${String(output.index)}</h3>
<dl class="kv">
<dt>Type</dt><dd>${scriptLabel(output.description.type)} <span class="muted">${output.description.type}</span></dd>
<dt>Script</dt><dd><code class="asm">${output.script.length === 0 ? '(empty)' : scriptToAsm(output.script)}</code></dd>
</dl></section>`)}
</details>
<p><a href="${base}#scripts">Hide the scripts</a></p>`;
}
