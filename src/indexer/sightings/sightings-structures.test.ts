import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PeerNetwork } from '../../core/index.js';
import { makeTx, script } from '../../../test/helpers/sightings-kit.js';
import { AnnouncementBook } from './announcement-book.js';
import { relationOf, signalsReplaceability } from './bip125.js';
import { ConflictBook } from './conflict-book.js';
import { FetchScheduler } from './fetch-scheduler.js';
import { PeerTxPool } from './peer-tx-pool.js';

const id = (n: number): string => n.toString(16).padStart(64, '0');

describe('announcement book', () => {
  it('counts announcers, and samples only peers connected before the first sighting', () => {
    const book = new AnnouncementBook();
    book.peerConnected(1, 1000);
    book.peerConnected(2, 1000);
    book.peerConnected(3, 5000);
    assert.equal(book.announce(id(1), 1, 2000), true);
    assert.equal(book.announce(id(1), 1, 2100), false);
    book.announce(id(1), 3, 6000);
    // Peer 3 connected after the first sighting but announced: it counts; peer 2 could have and did not.
    assert.deepEqual(book.sighting(id(1)), { firstSeenMs: 2000, announcedBy: 2, sampled: 3 });
    book.peerDisconnected(2);
    assert.deepEqual(book.sighting(id(1)), { firstSeenMs: 2000, announcedBy: 2, sampled: 2 }, 'a peer that left is no longer a sample');
    book.announce(id(3), 3, 6000);
    book.forgetPeer(3);
    assert.equal(book.sighting(id(3)), null, 'what only a dropped peer announced is withdrawn');
    assert.equal(book.sighting(id(1))!.announcedBy, 1);
    book.announce(id(1), 3, 6000);
    book.markInIndex(id(2), 7000);
    assert.deepEqual(book.sighting(id(2)), { firstSeenMs: 7000, announcedBy: 0, sampled: 2 });
    assert.equal(book.isInIndex(id(2)), true);
    assert.equal(book.isInIndex(id(1)), false);
  });

  it('holds at most maxEntries (oldest out) and forgets entries older than the maximum age', () => {
    const book = new AnnouncementBook(3, 10_000);
    for (let i = 0; i < 5; i++) book.announce(id(i), 1, i * 1000);
    assert.equal(book.size, 3);
    assert.equal(book.sighting(id(0)), null);
    book.prune(13_500);
    assert.equal(book.size, 1, 'entries first seen more than 10 s before are gone');
  });
});

describe('peer tx pool', () => {
  it('indexes spends by outpoint, serves outputs of its txs, and stays within count and byte bounds', () => {
    const a = makeTx([{ txid: id(1), vout: 0 }], [{ value: 5n, script: script('a') }]);
    const b = makeTx([{ txid: id(1), vout: 0 }], [{ value: 4n, script: script('b') }]);
    const pool = new PeerTxPool(2, 1_000_000, 60_000);
    pool.add(a, [null], null, 0);
    pool.add(b, [null], null, 1);
    assert.equal(pool.spenderOf({ txid: id(1), vout: 0 }), a.txid, 'the first spender stays indexed');
    assert.deepEqual(pool.outputOf({ txid: a.txid, vout: 0 }), { txid: a.txid, vout: 0, value: 5n, script: script('a') });
    const c = makeTx([{ txid: id(2), vout: 1 }], [{ value: 1n, script: script('c') }]);
    assert.deepEqual(pool.add(c, [null], null, 5_000), [a.txid]);
    assert.equal(pool.spenderOf({ txid: id(1), vout: 0 }), null, 'an evicted tx leaves the outpoint index');
    assert.equal(pool.byteSize, b.size + c.size);
    const tiny = new PeerTxPool(100, b.size + 1, 60_000);
    tiny.add(b, [null], null, 0);
    tiny.add(c, [null], null, 0);
    assert.equal(tiny.size, 1, 'the byte bound evicts too');
    assert.deepEqual(pool.prune(61_500), [b.txid]);
  });
});

describe('conflict book', () => {
  it('keeps both directions of a pair with inverse relations, once', () => {
    const book = new ConflictBook();
    const at = { txid: id(9), vout: 0 };
    assert.equal(book.add(id(1), id(2), 'replaces', at, 5), true);
    assert.equal(book.add(id(2), id(1), 'double-spend', at, 6), false);
    assert.deepEqual(book.conflicts(id(1)), [{ txid: id(2), relation: 'replaces', outpoint: at, detectedAtMs: 5 }]);
    assert.deepEqual(book.conflicts(id(2)), [{ txid: id(1), relation: 'replaced-by', outpoint: at, detectedAtMs: 5 }]);
    assert.deepEqual(book.conflicts(id(3)), []);
  });
});

describe('BIP125 judgement', () => {
  const optIn = makeTx([{ txid: id(1), vout: 0, sequence: 0xfffffffd }], [{ value: 90n, script: script('x') }]);
  const bump = makeTx([{ txid: id(1), vout: 0 }], [{ value: 80n, script: script('x') }]);
  const final = makeTx([{ txid: id(1), vout: 0, sequence: 0xffffffff }], [{ value: 95n, script: script('y') }]);
  it('a higher fee and fee rate replaces a signalling tx; anything else is a double spend', () => {
    assert.equal(signalsReplaceability(optIn), true);
    assert.equal(signalsReplaceability(final), false);
    assert.equal(relationOf({ tx: bump, fee: 20n }, { tx: optIn, fee: 10n }), 'replaces');
    assert.equal(relationOf({ tx: optIn, fee: 10n }, { tx: bump, fee: 20n }), 'replaced-by');
    assert.equal(relationOf({ tx: bump, fee: 20n }, { tx: final, fee: 5n }), 'double-spend', 'no signal: no replacement');
    assert.equal(relationOf({ tx: bump, fee: 10n }, { tx: optIn, fee: 10n }), 'double-spend', 'the same fee does not replace');
    assert.equal(relationOf({ tx: bump, fee: null }, { tx: optIn, fee: 10n }), 'double-spend', 'unknown fees cannot be judged');
  });
});

describe('fetch scheduler', () => {
  it('asks after the delay unless the index has it, and asks the next announcer after a notfound or a departure', () => {
    const asked: [number, string[]][] = [];
    const network = { requestTxs: (peer: number, txids: readonly string[]) => (asked.push([peer, [...txids]]), peer !== 9) } as unknown as PeerNetwork;
    const fetch = new FetchScheduler(network, 500, 3);
    fetch.announced(id(1), 1, 0);
    fetch.announced(id(1), 2, 10);
    fetch.announced(id(2), 1, 0);
    fetch.tick(400, () => false);
    assert.deepEqual(asked, [], 'not before the delay');
    fetch.tick(500, (txid) => txid === id(2));
    assert.deepEqual(asked, [[1, [id(1)]]], 'the indexed one is not fetched');
    fetch.failed(1, [id(1)], 600);
    fetch.tick(600, () => false);
    assert.deepEqual(asked.at(-1), [2, [id(1)]]);
    fetch.peerGone(2, 700);
    fetch.tick(700, () => false);
    assert.equal(fetch.size, 0, 'no announcer left: given up');
    for (let i = 10; i < 20; i++) fetch.announced(id(i), 1, 0);
    assert.equal(fetch.size, 3, 'bounded');
  });
});
