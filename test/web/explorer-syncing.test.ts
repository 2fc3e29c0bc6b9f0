/**
 * A network whose index has no block yet is "syncing": the explorer says so on every page that would show its
 * figures, instead of partial data (src/web/explorer/sync-state.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { getNetworkParams } from '../../src/chains/networks.js';
import { noPrices, silentLogger } from '../../src/core/index.js';
import { buildHttpApp, rateCounters } from '../../src/main/wiring/http-wiring.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { DEFAULT_ASSET_DIR } from '../../src/web/shell/asset-manifest.js';
import { explorerModule } from '../../src/web/explorer/explorer-module.js';
import { createWeb } from '../../src/web/register-web.js';
import { WebAssets } from '../../src/web/shell/assets.js';

describe('explorer while a network is syncing', () => {
  let dir: string;
  let store: SqliteStore;
  let app: FastifyInstance;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'outpoint-syncing-'));
    store = new SqliteStore({ path: join(dir, 'outpoint.db') });
    await store.migrate();
    const web = createWeb({ publicUrl: 'http://x.test', realtimeKey: 'k', rateLimitPerSecond: 0, rateCounters: rateCounters(null), logger: silentLogger, assets: WebAssets.load(DEFAULT_ASSET_DIR) }, [explorerModule]);
    app = await buildHttpApp({
      networks: new Map([['DOGE', { params: getNetworkParams('DOGE'), reader: store.network('DOGE') }]]),
      prices: noPrices,
      broadcaster: { broadcast: () => Promise.reject(new Error('no node')) },
      publicUrl: 'http://x.test',
      rateLimitPerSecond: 0,
      redisUrl: null,
      logger: silentLogger,
      shortLinks: store.shortAddresses(),
      extensions: [web],
    });
  });
  after(async () => {
    await app.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says so on the start page, the network page and the mempool page', async () => {
    for (const url of ['/', '/doge', '/doge?part=card', '/doge/mempool']) {
      const res = await app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      // No status and no block: an initial sync whose first status is not written yet (effectiveSyncStatus).
      assert.match(res.body, /<strong>Syncing \(loading blocks\)\.<\/strong> The index has not reached its first block yet\./, url);
      assert.doesNotMatch(res.body, /Latest blocks|Unconfirmed txs/, url);
    }
  });
});
