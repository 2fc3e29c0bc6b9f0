import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { MemoryEventBus, silentLogger, type DomainEvent, type DoubleSpendEvent, type PeerNetwork, type PeerSummary, type Transaction } from '../../core/index.js';
import { MemoryIndex, makeTx, script } from '../../../test/helpers/sightings-kit.js';
import { waitFor } from '../../../test/helpers/regtest-node.js';
import { TxSightingsWatcher } from './tx-sightings-watcher.js';

const NET = 'LTCTEST' as const;

class FakePeers implements PeerNetwork {
  readonly asked: [number, string[]][] = [];
  start(): void {}
  async stop(): Promise<void> {}
  requestTxs(peer: number, txids: readonly string[]): boolean {
    this.asked.push([peer, [...txids]]);
    return true;
  }
  misbehaved(): void {}
  peers(): PeerSummary[] {
    return [];
  }
}

const peer = (id: number): PeerSummary => ({ id, address: `127.0.0.1:${id}`, configured: true, userAgent: '/x/', protocolVersion: 70016, connectedAtMs: 0, feeFilter: 0n });

interface Setup {
  readonly index: MemoryIndex;
  readonly bus: MemoryEventBus;
  readonly events: DomainEvent[];
  readonly peers: FakePeers;
  readonly watcher: TxSightingsWatcher;
  readonly clock: { ms: number };
}

let current: Setup | null = null;
afterEach(async () => {
  await current?.watcher.stop();
  current = null;
});

function setup(syncing: () => boolean = () => false): Setup {
  const index = new MemoryIndex();
  const bus = new MemoryEventBus((err) => {
    throw err;
  });
  const events: DomainEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const clock = { ms: 1_000_000 };
  const watcher = new TxSightingsWatcher({ network: NET, mweb: false, reader: index.reader(), bus, logger: silentLogger, nowMs: () => clock.ms, fetchDelayMs: 0, syncing });
  const peers = new FakePeers();
  watcher.attach(peers);
  watcher.start();
  for (const id of [1, 2, 3]) watcher.peerConnected(peer(id));
  current = { index, bus, events, peers, watcher, clock };
  return current;
}

const doubleSpends = (events: readonly DomainEvent[]): DoubleSpendEvent[] => events.filter((e): e is DoubleSpendEvent => e.kind === 'double_spend');

/** What the indexer publishes when it stores a mempool tx. */
function accepted(s: Setup, tx: Transaction): void {
  s.index.put(tx, 'mempool');
  const record = s.index.txs.get(tx.txid)!;
  const inputValue = record.fee === null ? null : record.fee + tx.outputs.reduce((sum, o) => sum + o.value, 0n);
  s.bus.publish({ kind: 'tx_accepted', network: NET, tx, seenAt: 1, inputValue, deltas: [], mempoolSize: 1, prevouts: record.prevouts });
}

/** A peer announces and, asked for it, delivers the tx. */
async function relayed(s: Setup, tx: Transaction, from: number): Promise<void> {
  s.watcher.txAnnounced(from, [tx.txid]);
  await waitFor(() => s.peers.asked.some(([p, ids]) => p === from && ids.includes(tx.txid)), 2_000, 'getdata');
  s.watcher.txReceived(from, tx);
  await waitFor(() => s.watcher.stats.queued === 0, 2_000, 'checks done');
}

describe('tx sightings watcher', () => {
  it('a peer relays a conflicting spend of a tx in our mempool: both are double spends, announced once each, the peer-only side touches its addresses', async () => {
    const s = setup();
    const fund = s.index.fund(100_000n);
    const ours = makeTx([{ txid: fund.txid, vout: 0 }], [{ value: 90_000n, script: script('merchant') }]);
    const theirs = makeTx([{ txid: fund.txid, vout: 0 }], [{ value: 95_000n, script: script('attacker') }]);
    accepted(s, ours);
    await relayed(s, theirs, 2);
    assert.deepEqual(s.watcher.conflicts(ours.txid).map((c) => [c.txid, c.relation]), [[theirs.txid, 'double-spend']]);
    assert.deepEqual(s.watcher.conflicts(theirs.txid).map((c) => [c.txid, c.relation]), [[ours.txid, 'double-spend']]);
    const peerOnly = s.watcher.peerTx(theirs.txid)!;
    assert.equal(peerOnly.fee, 5_000n);
    assert.equal(peerOnly.dead, false);
    const ds = doubleSpends(s.events);
    assert.deepEqual(ds.map((e) => [e.txid, e.conflictingTxids, e.reason, e.seenIn]), [
      [theirs.txid, [ours.txid], 'double_spend', 'mempool'],
      [ours.txid, [theirs.txid], 'double_spend', 'peers'],
    ]);
    assert.deepEqual(ds[0]!.outpoints, [{ txid: fund.txid, vout: 0 }]);
    const scripts = ds[1]!.scripts.map((b) => Buffer.from(b).toString('hex'));
    for (const who of ['merchant', 'attacker']) assert.ok(scripts.includes(Buffer.from(script(who)).toString('hex')), `${who} is involved`);
    const touched = s.events.filter((e) => e.kind === 'address_touched');
    assert.deepEqual(touched.map((e) => e.kind === 'address_touched' && e.txid), [theirs.txid, theirs.txid], 'the funding script (sent) and the attacker (received)');
    // The same conflict relayed again, and our node conflicting it by a block, announce nothing new.
    s.watcher.txReceived(3, theirs);
    s.index.put(theirs, 'confirmed', 2);
    s.index.setStatus(ours.txid, 'removed');
    s.bus.publish({ kind: 'tx_removed', network: NET, txid: ours.txid, reason: 'conflicted' });
    s.bus.publish({ kind: 'block_connected', network: NET, height: 2, hash: 'h', prevHash: 'p', merkleRoot: 'm', time: 1, bits: 1, size: 1, txCount: 2, minerAddress: null, minerTag: null, receivedAt: 1 });
    await waitFor(() => s.watcher.stats.queued === 0, 2_000, 'checks done');
    assert.equal(doubleSpends(s.events).length, 2);
    assert.equal(s.watcher.peerTx(theirs.txid), null, 'confirmed: the index holds it now');
  });

  it('BIP125, replacement after the original was seen: the replaced one is announced as replaced, the replacement is not flagged', async () => {
    const s = setup();
    const fund = s.index.fund(100_000n);
    const original = makeTx([{ txid: fund.txid, vout: 0, sequence: 0xfffffffd }], [{ value: 99_000n, script: script('shop') }]);
    const replacement = makeTx([{ txid: fund.txid, vout: 0, sequence: 0xfffffffd }], [{ value: 97_000n, script: script('shop') }]);
    await relayed(s, original, 1);
    accepted(s, replacement);
    await waitFor(() => s.watcher.stats.queued === 0, 2_000, 'checks done');
    assert.deepEqual(s.watcher.conflicts(replacement.txid).map((c) => c.relation), ['replaces']);
    assert.deepEqual(s.watcher.conflicts(original.txid).map((c) => c.relation), ['replaced-by']);
    assert.deepEqual(doubleSpends(s.events).map((e) => [e.txid, e.reason, e.seenIn]), [[original.txid, 'replaced', 'mempool']]);
    assert.equal(s.events.filter((e) => e.kind === 'address_touched').length, 0, 'a replaced tx is no news for its addresses');
  });

  it('BIP125, replacement relayed while the original is in our mempool: the same verdict from the other side', async () => {
    const s = setup();
    const fund = s.index.fund(100_000n);
    const original = makeTx([{ txid: fund.txid, vout: 0, sequence: 0xfffffffd }], [{ value: 99_000n, script: script('shop') }]);
    const replacement = makeTx([{ txid: fund.txid, vout: 0, sequence: 0xfffffffd }], [{ value: 97_000n, script: script('shop') }]);
    accepted(s, original);
    await relayed(s, replacement, 3);
    assert.deepEqual(s.watcher.conflicts(replacement.txid).map((c) => c.relation), ['replaces']);
    assert.deepEqual(doubleSpends(s.events).map((e) => [e.txid, e.reason, e.seenIn]), [[original.txid, 'replaced', 'peers']]);
    // Our node takes the replacement: it leaves the peer-only pool; the indexer's own removal of the original adds nothing.
    s.index.setStatus(original.txid, 'removed');
    accepted(s, replacement);
    s.bus.publish({ kind: 'tx_removed', network: NET, txid: original.txid, reason: 'replaced' });
    await waitFor(() => s.watcher.stats.queued === 0, 2_000, 'checks done');
    assert.equal(s.watcher.peerTx(replacement.txid), null);
    assert.equal(doubleSpends(s.events).length, 1);
  });

  it('a block confirming a competitor kills a peer-only tx; our node replacing a tx is announced without any peer', async () => {
    const s = setup();
    const fund = s.index.fund(100_000n, 50_000n);
    const relayedTx = makeTx([{ txid: fund.txid, vout: 0 }], [{ value: 90_000n, script: script('a') }]);
    await relayed(s, relayedTx, 1);
    const mined = makeTx([{ txid: fund.txid, vout: 0 }], [{ value: 80_000n, script: script('b') }]);
    s.index.put(mined, 'confirmed', 2);
    s.bus.publish({ kind: 'block_connected', network: NET, height: 2, hash: 'h', prevHash: 'p', merkleRoot: 'm', time: 1, bits: 1, size: 1, txCount: 2, minerAddress: null, minerTag: null, receivedAt: 1 });
    await waitFor(() => s.watcher.peerTx(relayedTx.txid)?.dead === true, 2_000, 'dead');
    assert.deepEqual(doubleSpends(s.events).map((e) => [e.txid, e.conflictingTxids, e.reason, e.seenIn]), [[relayedTx.txid, [mined.txid], 'conflicted', 'block']]);
    // Store-side replacement (no P2P involved): named with what replaced it.
    const before = makeTx([{ txid: fund.txid, vout: 1, sequence: 1 }], [{ value: 49_000n, script: script('c') }]);
    const after = makeTx([{ txid: fund.txid, vout: 1, sequence: 1 }], [{ value: 48_000n, script: script('c') }]);
    s.index.put(before, 'removed');
    s.index.put(after, 'mempool');
    s.bus.publish({ kind: 'tx_removed', network: NET, txid: before.txid, reason: 'replaced' });
    await waitFor(() => doubleSpends(s.events).length === 2, 2_000, 'replacement announced');
    assert.deepEqual(doubleSpends(s.events).map((e) => [e.txid, e.conflictingTxids, e.reason]).at(-1), [before.txid, [after.txid], 'replaced']);
  });

  it('while the initial sync runs: announcements are recorded, nothing is fetched, checked or published; afterwards it is', async () => {
    const sync = { running: true };
    const s = setup(() => sync.running);
    const fund = s.index.fund(100_000n);
    const ours = makeTx([{ txid: fund.txid, vout: 0 }], [{ value: 90_000n, script: script('merchant') }]);
    const theirs = makeTx([{ txid: fund.txid, vout: 0 }], [{ value: 95_000n, script: script('attacker') }]);
    s.index.put(ours, 'mempool');
    s.watcher.txAnnounced(2, [theirs.txid]);
    s.watcher.txReceived(2, theirs);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(s.peers.asked, [], 'no getdata into a half-built index');
    assert.equal(s.watcher.peerTx(theirs.txid), null, 'a delivered tx is not checked either');
    assert.equal(s.watcher.sighting(theirs.txid)?.announcedBy, 1, 'but the announcement counts');
    assert.deepEqual(s.events.filter((e) => e.kind === 'double_spend' || e.kind === 'address_touched'), []);
    sync.running = false;
    accepted(s, ours);
    await relayed(s, theirs, 3);
    assert.deepEqual(doubleSpends(s.events).map((e) => e.txid).sort(), [ours.txid, theirs.txid].sort());
  });

  it('does not fetch what the index stored before the fetch delay, and counts every announcer', async () => {
    const s = setup();
    const fund = s.index.fund(10_000n);
    const tx = makeTx([{ txid: fund.txid, vout: 0 }], [{ value: 9_000n, script: script('z') }]);
    accepted(s, tx);
    s.watcher.txAnnounced(1, [tx.txid]);
    s.watcher.txAnnounced(2, [tx.txid]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(s.peers.asked, []);
    assert.deepEqual(s.watcher.sighting(tx.txid), { firstSeenMs: 1_000_000, announcedBy: 2, sampled: 3 });
  });
});
