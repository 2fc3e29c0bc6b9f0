import { html, type SafeHtml } from '../../shell/html.js';
import { count } from '../format.js';
import type { SyncPhase } from '../../../core/domain/sync-status.js';
import type { SyncState } from '../sync-state.js';

const PHASE_TEXT: Record<SyncPhase, string> = {
  loading: 'loading blocks', 'building-indexes': 'building indexes', 'catching-up': 'catching up', ready: 'ready',
};

/** What a syncing network shows instead of its (partial) data. */
export function syncBanner(state: Extract<SyncState, { kind: 'syncing' }>): SafeHtml {
  const { indexHeight, nodeHeight, etaSeconds, phase } = state;
  const known = indexHeight !== null && nodeHeight !== null && nodeHeight > 0;
  const percent = known ? Math.min(100, Math.floor((indexHeight * 1000) / nodeHeight) / 10) : null;
  return html`<div class="banner warn" role="status">
<p><strong>Syncing${phase ? html` (${PHASE_TEXT[phase]})` : ''}.</strong> ${
    indexHeight === null
      ? 'The index has not reached its first block yet.'
      : html`Indexed up to block ${count(indexHeight)}${nodeHeight !== null ? html` of ${count(nodeHeight)} (${String(percent)} %)` : ''}.`
  }${etaSeconds !== null ? html` About ${String(Math.max(1, Math.round(etaSeconds / 60)))} min left.` : ''} Figures appear once the index has caught up with the node.</p>
${percent !== null ? html`<progress class="progress" max="100" value="${String(percent)}" aria-label="Sync progress">${String(percent)} %</progress>` : ''}
</div>`;
}
