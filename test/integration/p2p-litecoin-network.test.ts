/**
 * Network confidence and double-spend detection against five real litecoind -regtest nodes on loopback, with
 * Outpoint (in-process, as `outpoint serve` runs) indexing node 0 and listening to four of the five over P2P:
 *
 *     A side: n0 ─ n1 ─ n2 ─┬─ n3 ─ n4 :B side        listener → n0, n1, n3, n4 (not n2)
 *                           └ the bridge cut for the partition
 *
 * A payment sent to n2 (which we do not listen to) reaches confidence > 0.9 as the others announce it; with the
 * bridge cut, two conflicting spends sent one to each side are both flagged double-spent within 2 s of the second
 * one's announcement, though our own node holds only one of them; pusher-js clients see `double_spend` (and the
 * peer-only side's `balance_update`); a block on the far side then confirms one and the other reads removed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connected, pusherClient, Recorder, subscribed, type Pusher } from '../helpers/pusher-clients.js';
import { copyChain, link, serveOutpoint, sameTip, signedSpend, unlink, walletUtxo, type ServedOutpoint } from '../helpers/p2p-network.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';

const N = 'LTCTEST';
let nodes: RegtestNode[] = [];
let outpoint: ServedOutpoint;
let pusher: Pusher | null = null;

interface Confidence {
  confidence: number;
  nodes: number | null;
  nodes_sampled: number | null;
  is_double_spend: boolean | null;
  confirmations: number;
}

const confidence = async (txid: string): Promise<Confidence> => {
  const { status, body } = await outpoint.get<{ data: Confidence }>(`/api/v2/get_confidence/${N}/${txid}`);
  assert.equal(status, 200, `get_confidence ${txid}`);
  return body.data;
};

before(async () => {
  nodes = await Promise.all([0, 1, 2, 3, 4].map((i) => startLitecoind({ funded: i === 0, wallet: i === 0, extraArgs: ['-connect=0'] })));
  const [n0, n1, n2, n3, n4] = nodes as [RegtestNode, RegtestNode, RegtestNode, RegtestNode, RegtestNode];
  await copyChain(n0, [n1, n2, n3, n4]);
  // Each node dials the one a payment sent to n2 reaches it from: relay to an inbound peer from 127.0.0.1 (whitelisted)
  // skips Core's 2 s outbound trickle, so the test does not wait on Poisson timers (docs/benchmarks.md has both).
  await link(n0, n1);
  await link(n1, n2);
  await link(n3, n2);
  await link(n4, n3);
  await n0.mine(1);
  await sameTip(nodes);
  outpoint = await serveOutpoint(N, n0, [n0, n1, n3, n4]);
  await waitFor(() => (outpoint.runtime.networks[0]!.p2p.listener?.peers().length ?? 0) === 4, 20_000, 'listener connected to four nodes');
});

after(async () => {
  pusher?.disconnect();
  await outpoint?.stop();
  await Promise.all(nodes.map((n) => n.stop()));
});

describe('network confidence from five litecoind nodes', () => {
  it('a payment sent to a node we do not listen to reaches confidence > 0.9 within seconds as the others announce it', async () => {
    const [n0, , n2] = nodes as [RegtestNode, RegtestNode, RegtestNode];
    const watcher = outpoint.runtime.networks[0]!.p2p.watcher;
    const payment = await signedSpend(n0, await walletUtxo(n0), await n0.newAddress('bech32'), 100_000n);
    const sent = Date.now();
    await n2.rpc.call('sendrawtransaction', [payment.hex]);
    let last: Confidence | null = null;
    await waitFor(async () => {
      const answer = await outpoint.get<{ data: Confidence }>(`/api/v2/get_confidence/${N}/${payment.txid}`);
      last = answer.status === 200 ? answer.body.data : null;
      return last !== null && last.confidence > 0.9;
    }, 15_000, 'confidence > 0.9', 50);
    const firstSeen = watcher.sighting(payment.txid)!.firstSeenMs;
    console.log(`# propagation: first announcement ${firstSeen - sent} ms after sending; confidence > 0.9 ${Date.now() - firstSeen} ms after it`);
    assert.equal(last!.is_double_spend, false);
    assert.deepEqual([last!.nodes, last!.nodes_sampled], [4, 4], 'all four nodes we listen to announced it');
    assert.ok(Date.now() - firstSeen < 10_000);
  });

  it('with the network partitioned, two conflicting spends (one per side) are both flagged within 2 s, though our node holds one', async () => {
    const [n0, , n2, n3] = nodes as [RegtestNode, RegtestNode, RegtestNode, RegtestNode];
    const watcher = outpoint.runtime.networks[0]!.p2p.watcher;
    await n0.mine(1);
    await sameTip(nodes);
    await unlink(n3, n2);
    const utxo = await walletUtxo(n0);
    const merchant = await n0.newAddress('bech32');
    const attacker = await n0.newAddress('legacy');
    const pay = await signedSpend(n0, utxo, merchant, 100_000n);
    const back = await signedSpend(n0, utxo, attacker, 200_000n);
    pusher = pusherClient(new URL(outpoint.url).port as unknown as number, 'outpoint');
    await connected(pusher);
    const merchantEvents = new Recorder<{ value: { txid: string; conflicting_txids: string[]; reason: string; seen_in: string; address: string } }>(
      await subscribed(pusher, `address_ltctest_${merchant}`), 'double_spend');
    const attackerChannel = await subscribed(pusher, `address_ltctest_${attacker}`);
    const attackerBalance = new Recorder<{ value: { tx: { txid: string }; value_received: string } }>(attackerChannel, 'balance_update');
    const chainEvents = new Recorder<{ value: { txid: string } }>(await subscribed(pusher, 'blockchain_update_ltctest'), 'double_spend');

    await n0.rpc.call('sendrawtransaction', [pay.hex]);
    await waitFor(async () => (await outpoint.get(`/api/v2/get_confidence/${N}/${pay.txid}`)).status === 200, 5_000, 'payment indexed');
    await n3.rpc.call('sendrawtransaction', [back.hex]);
    const sent = Date.now();
    await waitFor(async () => (await confidence(pay.txid)).is_double_spend === true, 5_000, 'payment flagged', 50);
    await waitFor(async () => (await outpoint.get<{ data: Confidence }>(`/api/v2/get_confidence/${N}/${back.txid}`)).body.data?.is_double_spend === true, 5_000, 'other side flagged', 50);
    const announced = watcher.sighting(back.txid)!.firstSeenMs;
    const flaggedAfter = Date.now() - announced;
    console.log(`# double spend: second spend announced ${announced - sent} ms after sending; both flagged ${flaggedAfter} ms after its announcement`);
    assert.ok(flaggedAfter <= 2_000, `flagged ${flaggedAfter} ms after the announcement`);
    const flagged = await confidence(pay.txid);
    assert.deepEqual(flagged, { network: N, txid: pay.txid, confidence: 0, confirmations: 0, nodes: flagged.nodes, nodes_sampled: 4, is_double_spend: true });
    assert.equal((await outpoint.runtime.store.network(N).getTransaction(back.txid)), null, 'our node never took the other side');

    // The peer-only side answers like any unconfirmed tx, and its display names what it conflicts with.
    const tx = await outpoint.get<{ data: { confirmations: number; blockhash: null; tx_hex: string } }>(`/api/v2/get_tx/${N}/${back.txid}`);
    assert.equal(tx.status, 200);
    assert.deepEqual([tx.body.data.confirmations, tx.body.data.blockhash, tx.body.data.tx_hex], [0, null, back.hex]);
    const confirmed = await outpoint.get<{ data: { is_confirmed: boolean } }>(`/api/v2/is_tx_confirmed/${N}/${back.txid}`);
    assert.equal(confirmed.body.data.is_confirmed, false);
    const display = await outpoint.get<{ data: { is_double_spend: boolean; conflicting_txids: string[] } }>(`/api/v2/tx/${N}/${back.txid}`);
    assert.deepEqual([display.body.data.is_double_spend, display.body.data.conflicting_txids], [true, [pay.txid]]);
    const ours = await outpoint.get<{ data: { is_double_spend: boolean; conflicting_txids: string[] } }>(`/api/v2/tx/${N}/${pay.txid}`);
    assert.deepEqual([ours.body.data.is_double_spend, ours.body.data.conflicting_txids], [true, [back.txid]]);

    // The explorer's pages (server-rendered, as without JavaScript) say so and link each side to the other.
    for (const [txid, other, words] of [[pay.txid, back.txid, 'unconfirmed, relayed by peers'], [back.txid, pay.txid, 'unconfirmed)']] as const) {
      const page = await fetch(`${outpoint.url}/ltctest/tx/${txid}`);
      const text = await page.text();
      assert.equal(page.status, 200);
      assert.match(text, /Double spend detected/);
      assert.ok(text.includes(`/ltctest/tx/${other}`) && text.includes(words), `${txid} names ${other}`);
    }
    const peerOnlyPage = await (await fetch(`${outpoint.url}/ltctest/tx/${back.txid}?part=status`)).text();
    assert.match(peerOnlyPage, /Double spend detected/);

    // Realtime: the merchant's channel hears its payment is double spent; the attacker's, the tx that pays it.
    const merchantEvent = await merchantEvents.next((e) => e.value.txid === pay.txid);
    assert.deepEqual([merchantEvent.value.conflicting_txids, merchantEvent.value.reason, merchantEvent.value.seen_in, merchantEvent.value.address], [[back.txid], 'double_spend', 'peers', merchant]);
    await chainEvents.next((e) => e.value.txid === back.txid);
    const balance = await attackerBalance.next((e) => e.value.tx.txid === back.txid);
    assert.ok(Number(balance.value.value_received) > 0);
  });

  it('a block on the far side confirms the other spend: ours reads removed and double-spent, theirs confirmed', async () => {
    const [n0, , n2, n3] = nodes as [RegtestNode, RegtestNode, RegtestNode, RegtestNode];
    const store = outpoint.runtime.store.network(N);
    const watcher = outpoint.runtime.networks[0]!.p2p.watcher;
    const backTxid = [...(await n3.rpc.call<string[]>('getrawmempool'))][0]!;
    const payTxid = watcher.conflicts(backTxid)[0]!.txid;
    await n3.mine(1, await n0.newAddress('bech32'));
    await link(n3, n2);
    await sameTip(nodes);
    await waitFor(async () => (await store.getTransaction(payTxid))?.status === 'removed', 10_000, 'our payment removed');
    const lost = await confidence(payTxid);
    assert.deepEqual(lost, { network: N, txid: payTxid, confidence: 0, confirmations: 0, nodes: lost.nodes, nodes_sampled: lost.nodes_sampled, is_double_spend: true });
    const theirs = await confidence(backTxid);
    assert.deepEqual([theirs.confidence, theirs.confirmations, theirs.is_double_spend, theirs.nodes, theirs.nodes_sampled], [1, 1, null, null, null]);
    await waitFor(() => watcher.peerTx(backTxid) === null, 5_000, 'the confirmed tx left the peer-only pool');
  });
});
