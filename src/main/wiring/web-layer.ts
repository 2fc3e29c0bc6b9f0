import type { OutpointConfig } from '../../config/index.js';
import type { ApiDocuments } from '../../core/infrastructure/api-documents.js';
import type { ChainStore } from '../../core/index.js';
import type { Logger } from '../../core/infrastructure/logger.js';
import { dashboardModule } from '../../web/dashboard/dashboard-module.js';
import { explorerModule } from '../../web/explorer/explorer-module.js';
import { referenceModule } from '../../web/reference/reference-module.js';
import { createWeb, type Web } from '../../web/register-web.js';
import { assetsStale, DEFAULT_ASSET_DIR } from '../../web/shell/asset-manifest.js';
import { WebAssets } from '../../web/shell/assets.js';
import { buildDashboard } from './dashboard-wiring.js';
import type { HttpCounters } from './processes/http-counters.js';

/**
 * The explorer and the account dashboard on the API's app: their assets, built beforehand by `npm run build` (serving
 * never bundles; missing assets stop the start with the command that builds them, and a checkout whose asset
 * sources changed since the build says so), and their page modules (with /docs, the API reference from the
 * documents the HTTP layer publishes into `apiDocuments`).
 */
export async function createWebLayer(config: OutpointConfig, store: ChainStore, logger: Logger, apiDocuments: ApiDocuments, counters: HttpCounters): Promise<Web> {
  const assets = WebAssets.load(DEFAULT_ASSET_DIR);
  if (assetsStale(assets.manifest)) logger.warn('web assets are older than their sources: run `npm run build`', { dir: DEFAULT_ASSET_DIR });
  await warnAboutAccounts(config, store, logger);
  const now = () => Math.floor(Date.now() / 1000);
  return createWeb(
    {
      publicUrl: config.http.publicUrl,
      realtimeKey: config.realtime.appKey,
      rateLimitPerSecond: config.web.rateLimitPerSecond,
      liveRateLimitPerSecond: config.web.liveRateLimitPerSecond,
      rateCounters: counters.rateCounters,
      logger,
      assets,
    },
    [explorerModule, referenceModule(apiDocuments), dashboardModule({ services: (accounts) => buildDashboard({ config, store, accounts: accounts.keys, usage: accounts.usage, attempts: counters.attempts(), logger, now }) })],
  );
}

/** Settings that would break sign-up or sign-in in a way the operator should hear about at start. */
async function warnAboutAccounts(config: OutpointConfig, store: ChainStore, logger: Logger): Promise<void> {
  const { registration, defaultPlan, secretKey } = config.accounts;
  if (registration === 'open' && !(await store.accounts().getPlan(defaultPlan))) {
    logger.warn('accounts.default_plan does not exist: open sign-up fails until it is created', { plan: defaultPlan, fix: `outpoint plans set ${defaultPlan} --max-daily-requests N` });
  }
  if (secretKey === null && config.store.url.startsWith('postgres')) {
    logger.warn('accounts.secret_key is not set: every API process of this database needs the same key (else the data dir\'s secret.key of each differs)');
  }
}
