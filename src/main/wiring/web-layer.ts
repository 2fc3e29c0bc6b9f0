import type { OutpointConfig } from '../../config/index.js';
import type { ChainStore } from '../../core/index.js';
import type { Logger } from '../../core/infrastructure/logger.js';
import { DEFAULT_ASSET_DIR, freshWebAssets } from '../../web/build/web-build.js';
import { dashboardModule } from '../../web/dashboard/dashboard-module.js';
import { explorerModule } from '../../web/explorer/explorer-module.js';
import { createWeb, type Web } from '../../web/register-web.js';
import { WebAssets } from '../../web/shell/assets.js';
import { buildDashboard } from './dashboard-wiring.js';
import { rateCounters } from './http-wiring.js';

/**
 * The explorer and the account dashboard on the API's app: their assets (rebuilt first if the checkout's sources
 * differ from the last build, so a stale bundle is never served) and their page modules.
 */
export async function createWebLayer(config: OutpointConfig, store: ChainStore, logger: Logger): Promise<Web> {
  const { manifest, rebuilt } = await freshWebAssets();
  if (rebuilt) logger.info('web assets built', { dir: DEFAULT_ASSET_DIR });
  await warnAboutAccounts(config, store, logger);
  const now = () => Math.floor(Date.now() / 1000);
  return createWeb(
    {
      publicUrl: config.http.publicUrl,
      realtimeKey: config.realtime.appKey,
      rateLimitPerSecond: config.web.rateLimitPerSecond,
      rateCounters: rateCounters(config.redis.url),
      logger,
      assets: new WebAssets(manifest, DEFAULT_ASSET_DIR),
    },
    [explorerModule, dashboardModule({ services: (accounts) => buildDashboard({ config, store, accounts: accounts.keys, usage: accounts.usage, logger, now }) })],
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
