/**
 * Search hits: their pages and labels (the search page's links), and the search box's suggestions as a listbox
 * fragment (`/search?part=suggest&q=…`): the page script (client/search-suggest.ts) copies its options under the box. Options carry their page in `data-href` rather than
 * holding links: an option's content is presentational in the combobox pattern, so a link inside it would be a
 * control nested in a control.
 */
import type { SearchHit } from '../../../services/search/search-service.js';
import { html, type SafeHtml } from '../../shell/html.js';
import { count, hash } from '../format.js';
import { addressPath, blockPath, txPath, walletPath } from '../paths.js';

export function hitPath(hit: SearchHit): string {
  switch (hit.kind) {
    case 'address':
    case 'short':
      return addressPath(hit.network.id, hit.address);
    case 'tx':
      return txPath(hit.network.id, hit.txid);
    case 'block':
      return blockPath(hit.network.id, hit.hash);
    case 'wallet':
      return walletPath(hit.network.id, hit.wallet);
  }
}

export function hitLabel(hit: SearchHit): SafeHtml {
  const on = hit.network.params.name;
  switch (hit.kind) {
    case 'address':
      return html`Address ${hash(hit.address)} on ${on}`;
    case 'short':
      return html`Short form ${hit.short}: address ${hash(hit.address)} on ${on}`;
    case 'tx':
      return html`Transaction ${hash(hit.txid)} on ${on}`;
    case 'block':
      return html`Block ${count(hit.height)}${hit.isOrphan ? ' (orphaned)' : ''} on ${on}`;
    case 'wallet':
      return html`Wallet ${hash(hit.wallet)} on ${on}`;
  }
}

/** The suggestions' listbox. */
export function searchSuggestions(hits: readonly SearchHit[]): SafeHtml {
  return html`<ul id="search-suggestions" role="listbox" aria-label="Suggestions">${hits.map((hit) => html`<li role="option" data-href="${hitPath(hit)}">${hitLabel(hit)}</li>`)}</ul>`;
}
