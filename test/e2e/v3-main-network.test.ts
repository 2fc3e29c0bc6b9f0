/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are checked field by field */
/**
 * v3 on a main network (LTC), where the regtest suites cannot look: one real mainnet block (LTC 2383209, mined by
 * litecoinpool.org, coinbase tag "/LP/") stored as the tip of an SQLite index, and a PriceReader the test
 * controls. Price objects keep their type before and after the first quote, and the block's miner is named by
 * one rule in v3 (`miner`, `miner_tag`) and in realtime (`mined_by`).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { getNetworkParams } from '../../src/chains/addressing.js';
import { parseBlock } from '../../src/chains/parsing.js';
import type { Block, ConnectedBlock, NetworkId, NetworkReader, PriceQuote, PriceReader } from '../../src/core/index.js';
import { blockEvents } from '../../src/indexer/indexer-events.js';
import { blockUpdatePayload } from '../../src/services/events/catalogue/block-update.payload.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { call, sameAccountIn, v3App } from './v3-fixture.js';

const LTC = getNetworkParams('LTC', 'main');
const FIXTURE = JSON.parse(readFileSync(new URL('../../test/fixtures/blocks/LTC-2383209.json', import.meta.url), 'utf8')) as { hex: string };
/** The index starts where the store lets a chain start; the block's real height does not matter here. */
const HEIGHT = 0;
/** The real block with its coinbase only: the other txs spend outputs this index has never seen. */
const full = parseBlock(Buffer.from(FIXTURE.hex, 'hex'), LTC.features);
const block: Block = { ...full, txs: [full.txs[0]!], mweb: null };
const TIME = block.header.time;
const NO_PRICE = { value: '0.00000000', currency: 'USD', updated_at: 0 };

let dir: string;
let store: SqliteStore;
let app: FastifyInstance;
let key: string;
let quotes: PriceQuote[] = [];
let connected: ConnectedBlock[];

/** USD quotes of LTC as the test sets them; `at` is the newest at or before the time. */
const prices: PriceReader = {
  latest: (coin, base) => Promise.resolve(quotes.filter((q) => q.coin === coin && (base === undefined || q.base === base))),
  at: (coin, base, time) => Promise.resolve(quotes.filter((q) => q.coin === coin && q.base === base && q.time <= time).at(-1) ?? null),
};

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'outpoint-v3-main-'));
  store = new SqliteStore({ path: join(dir, 'store.db') });
  await store.migrate();
  connected = await store.network('LTC').connectBlocks([{ height: HEIGHT, block }]);
  ({ key } = await sameAccountIn([store.accounts()], 'main@x.io', 'main', 1000));
  const reader: NetworkReader = store.network('LTC');
  app = await v3App(null, reader, store.accounts(), { networks: new Map<NetworkId, { params: typeof LTC; reader: NetworkReader }>([['LTC', { params: LTC, reader }]]), prices });
});

after(async () => {
  await app?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = async (path: string): Promise<any> => {
  const r = await call(app, `/api/v3${path}`, key);
  assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
  return r.body.data;
};

describe('v3 on a main network', () => {
  it('price objects before the first quote: value "0.00000000", updated_at 0, never null', async () => {
    assert.deepEqual(await get('/price/LTC'), NO_PRICE);
    assert.deepEqual(await get(`/price/LTC/${TIME}`), NO_PRICE);
    assert.deepEqual((await get(`/block/LTC/${HEIGHT}`)).price, NO_PRICE);
    assert.deepEqual((await get('/latest_blocks_summary/LTC')).blocks[0].price, NO_PRICE);
    assert.deepEqual((await get(`/transaction/LTC/${block.txs[0]!.txid}`)).price, NO_PRICE);
  });

  it('price objects with a quote: the price at the item\'s time, 8 decimals, and when it was quoted', async () => {
    quotes = [
      { coin: 'LTC', base: 'USD', exchange: 'kraken', price: '84.1', time: TIME - 600 },
      { coin: 'LTC', base: 'USD', exchange: 'kraken', price: '85.25', time: TIME + 600 },
    ];
    const atBlock = { value: '84.10000000', currency: 'USD', updated_at: TIME - 600 };
    assert.deepEqual((await get(`/block/LTC/${HEIGHT}`)).price, atBlock);
    assert.deepEqual((await get('/latest_blocks_summary/LTC')).blocks[0].price, atBlock);
    assert.deepEqual(await get(`/price/LTC/${TIME}`), atBlock);
    assert.deepEqual(await get(`/price/LTC/${TIME - 601}`), NO_PRICE, 'before the first quote');
    assert.deepEqual(await get('/price/LTC'), { value: '85.25000000', currency: 'USD', updated_at: TIME + 600 });
  });

  it('miner: the address of the coinbase\'s first paying output in v3, the pool tag in miner_tag and realtime mined_by', async () => {
    const summary = (await get('/latest_blocks_summary/LTC')).blocks;
    assert.equal(summary.length, 1);
    assert.equal(summary[0].height, HEIGHT);
    assert.equal(summary[0].miner, 'LTCPodha2LAxSyBGsGfkWcmKDEB8cWrqLU', 'address of miner (docs/api-v3.md), not the tag');
    assert.equal(summary[0].miner_tag, '/LP/');
    const [event] = blockEvents(LTC, block, connected[0]!, 1_700_000_000, null);
    assert.equal(event?.kind, 'block_connected');
    const payload = blockUpdatePayload(event as Extract<typeof event, { kind: 'block_connected' }>);
    assert.equal(payload.value.mined_by, summary[0].miner_tag, 'realtime names the miner by the same rule');
  });

  it('network_info lists the next 6 mempool blocks even when the mempool is empty', async () => {
    const info = await get('/network_info/LTC');
    assert.deepEqual([info.block_count, info.mempool.mempool_txs, info.mempool.mempool_size], [HEIGHT, 0, 0]);
    assert.deepEqual(info.mempool.blocks, [1, 2, 3, 4, 5, 6].map((n) => ({
      block_num: n, min_fee_rate: 0, max_fee_rate: 0, median_fee_rate: 0, min_fee_rate_possible: 1, weight: 0, size: 0, num_txs: 0,
    })));
  });
});
