import type { BlockMiner } from '../../../chains/parsing.js';
import type { NetworkId } from '../../../core/domain/network.js';
import { html, type SafeHtml } from '../../shell/html.js';
import { hash, link } from '../format.js';
import { addressPath } from '../paths.js';

/**
 * Who mined a block, from chains' one rule (the same v3's `miner`/`miner_tag` and realtime's `mined_by` use):
 * the pool's coinbase tag when there is one, and the paid address linked to its page; "—" when neither is known.
 * `compact` (tables) shows the tag alone when there is one, as realtime's mined_by names a block.
 */
export function minerCell(network: NetworkId, miner: BlockMiner | null, compact = false): SafeHtml | string {
  const address = miner?.address ? link(addressPath(network, miner.address), hash(miner.address)) : null;
  const tag = miner?.tag ? hash(miner.tag) : null;
  if (tag && address) return compact ? tag : html`${tag} <span class="muted">paid to</span> ${address}`;
  return tag ?? address ?? '—';
}
