/**
 * BIP125 replacement against real bitcoind (Knots 29) regtest nodes, with Outpoint indexing n0 and listening to n0 and
 * n1. The replaced tx reads confidence 0.0 with is_double_spend (the payment it made is gone); the replacement, once it
 * is the only live spender, reads like any other live tx. Both orders:
 *   A. the original is stored by the index first, then our node replaces it (the store keeps its double-spent flag
 *      on the replacement: the services must not read it as lasting);
 *   B. the replacement reaches the index before the original ever does: the original is known only from a peer
 *      (n1, cut off from n0 meanwhile), and our node never holds it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { link, serveOutpoint, sameTip, signedSpend, unlink, walletUtxo, type ServedOutpoint } from '../helpers/p2p-network.js';
import { startBitcoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';

const N = 'BTCTEST';
let n0: RegtestNode;
let n1: RegtestNode;
let outpoint: ServedOutpoint;

interface Confidence {
  confidence: number;
  nodes: number | null;
  is_double_spend: boolean | null;
}

async function confidence(txid: string): Promise<Confidence> {
  const { status, body } = await outpoint.get<{ data: Confidence }>(`/api/v2/get_confidence/${N}/${txid}`);
  assert.equal(status, 200, `get_confidence ${txid}`);
  return body.data;
}

async function display(txid: string): Promise<{ is_double_spend: boolean | null; conflicting_txids: string[] }> {
  const { data } = (await outpoint.get<{ data: { is_double_spend: boolean | null; conflicting_txids: string[] } }>(`/api/v2/tx/${N}/${txid}`)).body;
  return { is_double_spend: data.is_double_spend, conflicting_txids: data.conflicting_txids };
}

before(async () => {
  [n0, n1] = await Promise.all([startBitcoind({ funded: true, extraArgs: ['-connect=0'] }), startBitcoind({ wallet: false, extraArgs: ['-connect=0'] })]);
  await link(n0, n1);
  await sameTip([n0, n1]);
  outpoint = await serveOutpoint(N, n0, [n0, n1]);
  await waitFor(() => (outpoint.runtime.networks[0]!.p2p.listener?.peers().length ?? 0) === 2, 20_000, 'listener connected');
});

after(async () => {
  await outpoint?.stop();
  await Promise.all([n0, n1].map((n) => n?.stop()));
});

describe('BIP125 replacement (bitcoind)', () => {
  it('A: the original stored, then replaced by our node: it reads double-spent, the replacement reads like any live tx', async () => {
    const store = outpoint.runtime.store.network(N);
    const utxo = await walletUtxo(n0);
    const to = await n0.newAddress('bech32');
    const original = await signedSpend(n0, utxo, to, 10_000n, { replaceable: true });
    const replacement = await signedSpend(n0, utxo, to, 50_000n, { replaceable: true });
    await n0.rpc.call('sendrawtransaction', [original.hex]);
    await waitFor(async () => (await store.getTransaction(original.txid))?.status === 'mempool', 5_000, 'original stored');
    await n0.rpc.call('sendrawtransaction', [replacement.hex]);
    await waitFor(async () => (await store.getTransaction(original.txid))?.status === 'removed', 5_000, 'original replaced in the index');
    assert.equal((await store.getTransaction(replacement.txid))?.doubleSpent, true, 'the store flags the replacement too (history)');
    assert.deepEqual(await confidence(original.txid).then((c) => [c.confidence, c.is_double_spend]), [0, true]);
    assert.deepEqual(await display(original.txid), { is_double_spend: true, conflicting_txids: [replacement.txid] });
    // Both nodes announce the replacement: it is the only live spender, so it scores like any propagated tx.
    await waitFor(async () => (await confidence(replacement.txid)).confidence > 0.9, 10_000, 'replacement propagated', 50);
    const live = await confidence(replacement.txid);
    assert.deepEqual([live.is_double_spend, live.nodes], [false, 2]);
    assert.equal((await display(replacement.txid)).is_double_spend, false);
  });

  it('B: the replacement reaches our index first, the original only from a peer: same verdicts', async () => {
    await n0.mine(1);
    await sameTip([n0, n1]);
    await unlink(n0, n1);
    const utxo = await walletUtxo(n0);
    const to = await n0.newAddress('bech32');
    const original = await signedSpend(n0, utxo, to, 10_000n, { replaceable: true });
    const replacement = await signedSpend(n0, utxo, to, 50_000n, { replaceable: true });
    const watcher = outpoint.runtime.networks[0]!.p2p.watcher;
    await n1.rpc.call('sendrawtransaction', [original.hex]);
    await waitFor(() => watcher.peerTx(original.txid) !== null, 5_000, 'original known from n1');
    const before = await confidence(original.txid);
    assert.equal(before.is_double_spend, false, 'alone, the original is just a tx our node has not seen');
    await n0.rpc.call('sendrawtransaction', [replacement.hex]);
    await waitFor(async () => (await confidence(original.txid)).is_double_spend === true, 5_000, 'original flagged', 50);
    // The index may learn the replacement (and flag the original through its spent outpoint) before n0's inv reaches
    // the listener, so the watcher's own record of the conflict is awaited, not assumed.
    await waitFor(() => watcher.conflicts(replacement.txid).length > 0, 5_000, 'replacement seen from n0 by the listener', 50);
    assert.deepEqual(watcher.conflicts(replacement.txid).map((c) => [c.txid, c.relation]), [[original.txid, 'replaces']]);
    assert.equal(await outpoint.runtime.store.network(N).getTransaction(original.txid), null, 'our node never held the original');
    assert.equal((await confidence(original.txid)).confidence, 0);
    const tx = await outpoint.get<{ data: { confirmations: number } }>(`/api/v2/get_tx/${N}/${original.txid}`);
    assert.deepEqual([tx.status, tx.body.data.confirmations], [200, 0]);
    const replaced = await confidence(replacement.txid);
    assert.equal(replaced.is_double_spend, false, 'the replacement is not flagged');
    assert.ok(replaced.confidence > 0);
    // n1 gets the replacement too (a node never pushes its older mempool txs to a new peer, so it is sent there) and
    // replaces the original: every sample holds the replacement now.
    await n1.rpc.call('sendrawtransaction', [replacement.hex]);
    await waitFor(async () => (await confidence(replacement.txid)).confidence > 0.9, 15_000, 'replacement propagated', 50);
    assert.equal((await confidence(replacement.txid)).is_double_spend, false);
    assert.deepEqual([(await confidence(original.txid)).confidence, (await confidence(original.txid)).is_double_spend], [0, true]);
  });
});
