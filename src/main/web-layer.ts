import type { OutpointConfig } from '../config/index.js';
import type { Logger } from '../core/logger.js';
import { DEFAULT_ASSET_DIR, freshWebAssets } from '../web/build/web-build.js';
import { explorerModule } from '../web/explorer/explorer-module.js';
import { createWeb, type Web } from '../web/register-web.js';
import { WebAssets } from '../web/shell/assets.js';

/**
 * The explorer on the API's app: its assets (rebuilt first if the checkout's sources differ from the last build,
 * so a stale bundle is never served) and its page modules.
 */
export async function createWebLayer(config: OutpointConfig, logger: Logger): Promise<Web> {
  const { manifest, rebuilt } = await freshWebAssets();
  if (rebuilt) logger.info('web assets built', { dir: DEFAULT_ASSET_DIR });
  return createWeb(
    {
      publicUrl: config.http.publicUrl,
      realtimeKey: config.realtime.appKey,
      rateLimitPerSecond: config.web.rateLimitPerSecond,
      redisUrl: config.redis.url,
      logger,
      assets: new WebAssets(manifest, DEFAULT_ASSET_DIR),
    },
    [explorerModule],
  );
}
