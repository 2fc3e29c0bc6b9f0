/**
 * The explorer's service reads over a real litecoind -regtest, on SQLite and PostgreSQL: history pages with
 * stable cursors cover the whole history exactly once in both directions (also past a first page that ends in
 * the mempool), the oldest-first export pass, search across inputs, conflicts of a double-spent tx, block ranges
 * and the newest mempool txs. Both engines must answer alike.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressToScript } from '../../src/chains/addressing.js';
import { getNetworkParams } from '../../src/chains/networks.js';
import { noPrices, silentLogger, type NetworkId } from '../../src/core/index.js';
import { RpcBroadcaster } from '../../src/node/rpc-broadcaster.js';
import type { TimelineCursor, TimelineEntry } from '../../src/services/addresses/address-timeline-service.js';
import { createServices, type Services } from '../../src/services/create-services.js';
import { ChainSummaryService } from '../../src/services/network/chain-summary-service.js';
import { MempoolProjector } from '../../src/services/network/mempool-projector.js';
import { conflictingSpend } from '../helpers/conflicting-spend.js';
import { useIndexedRegtest, syncAll, type IndexedEngine } from '../helpers/indexer-harness.js';
import { startLitecoind, type RegtestNode } from '../helpers/regtest-node.js';

const params = getNetworkParams('LTCTEST', 'regtest');
const N = 'LTCTEST';
let node: RegtestNode;
let indexed: IndexedEngine[];
const env = useIndexedRegtest(params, () => startLitecoind({ funded: true }), (started) => {
  node = started.node;
  indexed = started.indexed;
});

function servicesOf(e: IndexedEngine): Services {
  return createServices({
    networks: new Map<NetworkId, { params: typeof params; reader: typeof e.store }>([[N, { params, reader: e.store }]]),
    prices: noPrices,
    broadcaster: new RpcBroadcaster(new Map([[N, node.rpc]])),
    shortLinks: e.test.store.shortAddresses(),
    logger: silentLogger,
  });
}

/** Runs `read` on every engine, checks they agree, returns the first answer. */
async function onBoth<T>(read: (s: Services, e: IndexedEngine) => Promise<T>): Promise<T> {
  const answers = await Promise.all(indexed.map((e) => read(servicesOf(e), e)));
  for (const a of answers.slice(1)) assert.deepEqual(a, answers[0], 'engines agree');
  return answers[0]!;
}

const key = (e: TimelineEntry): string => `${e.txid}:${e.height}:${e.received}:${e.sent}`;

/** Follows one direction of cursors from `start` to the end; every page has at most `size` entries. */
async function walk(s: Services, address: string, start: TimelineCursor, size: number, direction: 'older' | 'newer'): Promise<TimelineEntry[][]> {
  const pages: TimelineEntry[][] = [];
  let cursor: TimelineCursor | null = start;
  while (cursor) {
    const page = await s.addresses.timeline.page(N, address, cursor, size);
    assert.ok(page.entries.length <= size);
    pages.push([...page.entries]);
    cursor = direction === 'older' ? page.older : page.newer;
    assert.ok(pages.length < 100, 'cursor walk terminates');
  }
  return pages;
}

describe('explorer services on both engines', () => {
  let address: string;
  const sent: string[] = [];

  it('history pages cover every tx once, newest first, in both directions and past a mempool-only first page', async () => {
    address = await node.newAddress('bech32');
    env().watched.push(address);
    for (let block = 0; block < 4; block++) {
      for (let i = 0; i < 4; i++) sent.push(await node.send(address, `0.0${block + 1}${i + 1}`));
      await node.mine(1);
    }
    for (let i = 0; i < 3; i++) sent.push(await node.send(address, `0.00${i + 1}`));
    await env().check('history');
    await onBoth(async (s, e) => {
      const all = await e.store.getAddressHistory(addressToScript(params, address), { direction: 'desc', limit: 1000 });
      assert.equal(all.length, 19);
      const expected = all.map((x) => x.txid);
      for (const size of [1, 2, 3, 5, 19, 25]) {
        const older = await walk(s, address, { kind: 'newest' }, size, 'older');
        assert.deepEqual(older.flat().map((x) => x.txid), expected, `older walk, page size ${size}`);
        if (size === 2) {
          // the first page is all mempool (3 unconfirmed txs): its next page is counted from the newest
          const first = await s.addresses.timeline.page(N, address, { kind: 'newest' }, 2);
          assert.deepEqual(first.older, { kind: 'skip', count: 2 });
        }
        const newer = await walk(s, address, { kind: 'oldest' }, size, 'newer');
        assert.deepEqual(newer.reverse().flat().map((x) => x.txid), expected, `newer walk from the oldest, page size ${size}`);
      }
      // A cursor page is the same however many txs arrive later (stable URLs).
      const third = await s.addresses.timeline.page(N, address, { kind: 'older', txid: expected[8]! }, 4);
      assert.deepEqual(third.entries.map((x) => x.txid), expected.slice(9, 13));
      return (await walk(s, address, { kind: 'newest' }, 5, 'older')).flat().map(key);
    });
  });

  it('the export pass lists every tx oldest first (chain order, then the mempool) in chunks', async () => {
    await onBoth(async (s) => {
      const chunks = [];
      for await (const chunk of s.addresses.timeline.oldestFirst(N, address, 4)) chunks.push(chunk.entries);
      assert.ok(chunks.every((c) => c.length <= 4) && chunks.length >= 5);
      const listed = chunks.flat();
      const newestFirst = (await walk(s, address, { kind: 'newest' }, 100, 'older')).flat();
      assert.deepEqual(listed.map(key), newestFirst.map(key).reverse());
      assert.deepEqual(listed.slice(-3).map((x) => x.height), [null, null, null]);
      return listed.map(key);
    });
  });

  it('search finds txids, block hashes, heights, addresses and short forms, and nothing in garbage', async () => {
    const tip = await node.rpc.call<number>('getblockcount');
    const tipHash = await node.rpc.call<string>('getbestblockhash');
    await onBoth(async (s) => {
      const short = (await s.addresses.shorts.resolve(N, address)).short;
      const kinds = async (q: string): Promise<string[]> => (await s.search.find(q)).map((h) => `${h.kind}:${h.network.id}`);
      assert.deepEqual(await kinds(sent[0]!), [`tx:${N}`]);
      assert.deepEqual(await kinds(sent[0]!.toUpperCase()), [`tx:${N}`]);
      assert.deepEqual(await kinds(tipHash), [`block:${N}`]);
      assert.deepEqual(await kinds(` ${tip} `), [`block:${N}`]);
      assert.deepEqual(await kinds(address), [`address:${N}`]);
      assert.deepEqual(await kinds(`litecoin:${address}?amount=1`), [`address:${N}`]);
      assert.deepEqual(await kinds(short), [`short:${N}`]);
      const hit = (await s.search.find(short))[0];
      assert.equal(hit?.kind === 'short' ? hit.address : null, address);
      for (const garbage of ['', 'nothing', '<script>alert(1)</script>', '0'.repeat(64), '99999999', 'x'.repeat(500)]) assert.deepEqual(await kinds(garbage), [], garbage);
      return short;
    });
  });

  it('suggestions: txid and block-hash prefixes (4+ digits) by index ranges, heights, complete addresses; capped', async () => {
    const tipHash = await node.rpc.call<string>('getbestblockhash');
    const tip = await node.rpc.call<number>('getblockcount');
    const mempoolTxid = sent[sent.length - 1]!;
    await onBoth(async (s) => {
      const suggested = async (q: string): Promise<string[]> => (await s.search.suggest(q)).map((h) => (h.kind === 'tx' ? `tx:${h.txid}` : h.kind === 'block' ? `block:${h.hash}` : `${h.kind}`));
      for (const txid of [sent[0]!, mempoolTxid]) {
        for (const length of [4, 9, 17, 63]) assert.ok((await suggested(txid.slice(0, length).toUpperCase())).includes(`tx:${txid}`), `${txid} by ${length} digits`);
      }
      assert.ok((await suggested(tipHash.slice(0, 6))).includes(`block:${tipHash}`));
      // (Three decimal digits would be a height.)
      const lettered = sent.find((t) => /[a-f]/.test(t.slice(0, 3)))!;
      assert.deepEqual(await suggested(lettered.slice(0, 3)), [], 'three digits are too few');
      assert.deepEqual((await suggested(String(tip)))[0], `block:${tipHash}`, 'a height comes first');
      assert.deepEqual(await suggested(address), ['address']);
      assert.deepEqual(await suggested(address.slice(0, 20)), [], 'no address prefixes');
      // Every suggestion is an exact hit (a height) or starts with what was typed; never more than the cap.
      for (const prefix of ['0000', 'abcd', 'ffff', '1234', sent[1]!.slice(0, 4)]) {
        const exact = new Set((await s.search.find(prefix)).map((h) => (h.kind === 'block' ? `block:${h.hash}` : h.kind)));
        const hits = await suggested(prefix);
        assert.ok(hits.length <= 8);
        for (const h of hits) assert.ok(exact.has(h) || h.split(':')[1]!.startsWith(prefix), `${prefix}: ${h}`);
      }
      return suggested(sent[0]!.slice(0, 5));
    });
  });

  it("an address's balance after each block equals its history's running sums; a capped read gives the newest blocks", async () => {
    await onBoth(async (s) => {
      const oldestFirst = [];
      for await (const chunk of s.addresses.timeline.oldestFirst(N, address)) oldestFirst.push(...chunk.entries.filter((e) => e.height !== null));
      let running = 0n;
      const expected = new Map<number, bigint>();
      for (const e of oldestFirst) expected.set(e.height!, (running += e.received - e.sent));
      const full = await s.addresses.balanceHistory.lastChanges(N, address);
      assert.equal(full.capped, false);
      assert.equal(full.txsRead, 16);
      assert.deepEqual(full.points.map((p) => [p.height, p.balance]), [...expected.entries()]);
      // Six txs: the newest block's four and two of the one before: both blocks' balances are still exact.
      const capped = await s.addresses.balanceHistory.lastChanges(N, address, 6);
      assert.equal(capped.capped, true);
      assert.equal(capped.txsRead, 6);
      assert.deepEqual(capped.points.map((p) => [p.height, p.balance]), [...expected.entries()].slice(-2));
      return full.points.map((p) => `${p.height}:${p.balance}:${p.change}`);
    });
  });

  it('a tx double-spent by a block names the tx that won', async () => {
    const target = await node.newAddress('bech32');
    env().watched.push(target);
    const original = await node.send(target, '0.25');
    await env().check('before the conflict');
    const conflicting = await conflictingSpend(node, original);
    await node.rpc.call('generateblock', [await node.newAddress('bech32'), [conflicting.hex]]);
    await env().check('conflict');
    await onBoth(async (s) => {
      const view = await s.transactions.reads.get(N, original);
      assert.equal(view.record.status, 'removed');
      assert.deepEqual(await s.transactions.reads.conflicts(view), [{ vin: 0, txid: conflicting.txid, confirmed: true, peerOnly: false }]);
      assert.deepEqual(await s.transactions.reads.conflicts(await s.transactions.reads.get(N, conflicting.txid)), [], 'the winner has no conflicts');
      return true;
    });
  });

  it('block ranges come newest first with their miners; the newest mempool txs come newest first', async () => {
    const tip = await node.rpc.call<number>('getblockcount');
    const txids: string[] = [];
    for (let i = 0; i < 3; i++) {
      // first-seen times are whole seconds: one send per second gives them an order
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      txids.push(await node.send(await node.newAddress('legacy'), '0.01'));
      await syncAll(indexed);
    }
    await onBoth(async (s) => {
      const chain = new ChainSummaryService(s.networks, new MempoolProjector({ networks: s.networks, sources: new Map(), events: null, logger: silentLogger }));
      const { blocks } = await chain.blocksDown(N, tip - 2, 5);
      assert.deepEqual(blocks.map((b) => b.block.height), [tip - 2, tip - 3, tip - 4, tip - 5, tip - 6]);
      assert.ok(blocks.every((b) => b.miner?.address), 'every regtest coinbase pays an address');
      assert.deepEqual((await chain.blocksDown(N, tip + 50, 2)).blocks.map((b) => b.block.height), [tip, tip - 1], 'above the tip starts at the tip');
      assert.deepEqual((await chain.blocksDown(N, 1, 5)).blocks.map((b) => b.block.height), [1, 0]);
      // The mempool page's list comes from the projection's own snapshot, newest first.
      const { mempool } = await chain.status(N);
      assert.equal(mempool.txCount, (await node.rpc.call<string[]>('getrawmempool')).length);
      assert.deepEqual(mempool.newest.slice(0, 2).map((t) => t.txid), [txids[2], txids[1]]);
      return mempool.txCount;
    });
  });
});
