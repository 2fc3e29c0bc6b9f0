import type { NetworkId } from '../../core/domain/network.js';
import type { ChainSummaryService } from '../../services/network/chain-summary-service.js';
import type { Services } from '../../services/create-services.js';
import type { MempoolProjector } from '../../services/network/mempool-projector.js';
import type { NetworkContext } from '../../services/shared/network-registry.js';
import type { SafeHtml } from '../shell/html.js';
import type { WebShell } from '../shell/web-shell.js';

/**
 * What the explorer's pages read and render with. Everything goes through services: pages never touch a
 * NetworkContext's reader (test/web/explorer-layering.test.ts checks the sources).
 */
export interface ExplorerDeps {
  readonly services: Services;
  /** Latest blocks with miners, tips, network status with the mempool projection. */
  readonly chain: ChainSummaryService;
  readonly projector: MempoolProjector;
  readonly shell: WebShell;
  /** Base of absolute links (short links, curl lines), without a trailing slash. */
  readonly publicUrl: string;
  /** UNIX seconds. */
  readonly now: () => number;
  /** Rendered network cards by state (parts/network-card.ts). */
  readonly cards: Map<string, { key: string; html: SafeHtml }>;
}

/** The configured networks in the order the operator configured them. */
export function configuredNetworks(deps: ExplorerDeps): NetworkContext[] {
  return deps.services.networks.ids().map((id: NetworkId) => deps.services.networks.resolve(id));
}
