/**
 * Issue 32, realtime catch-up, on the real process: `outpoint serve` over a litecoind regtest node and the unchanged
 * pusher-js. Every live event carries an `event_id`; a client disconnected while three payments arrive calls
 * `GET /api/v2/events/{NETWORK}` on reconnecting (the recipe of docs/realtime.md) and gets all three, in order, as
 * they went out live. Cursors the log cannot answer are refused with 410 (resync), never answered short.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connected, pusherClient, Recorder, subscribed, type Pusher } from '../helpers/pusher-clients.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { httpJson, startServeWithBody, type ServeProcess } from '../helpers/serve-process.js';

interface Live {
  type: string;
  value: { address?: string; tx?: { txid: string }; txid?: string; block_no?: number };
  event_id: number;
}

let node: RegtestNode;
let serve: ServeProcess;
let pusher: Pusher;

before(async () => {
  node = await startLitecoind({ funded: true });
  serve = await startServeWithBody(`[market]\nsources = []\n[networks.LTCTEST]\nchain = "regtest"\nrpc_url = "${node.rpcUrl}"\npoll_ms = 100\n`);
  pusher = pusherClient(serve.port, 'outpoint');
  await connected(pusher);
});

after(async () => {
  pusher?.disconnect();
  await serve?.stop();
  await node?.stop();
});

async function indexed(txid: string): Promise<void> {
  await waitFor(async () => (await httpJson(serve.port, `/api/v2/get_tx/LTCTEST/${txid}`)).status === 200, 20_000, `${txid} indexed`);
}

describe('realtime catch-up with pusher-js', () => {
  it('a client disconnected for three payments gets all three, in order, from the feed after reconnecting', async () => {
    const address = await node.newAddress('bech32');
    const channelName = `address_ltctest_${address}`;
    const channel = await subscribed(pusher, channelName);
    const live = new Recorder<Live>(channel, 'balance_update');

    // The recipe: keep the last event_id per channel; on `connected` after a drop, ask the feed what was missed.
    let lastId = 0;
    channel.bind('balance_update', (data: Live) => (lastId = Math.max(lastId, data.event_id)));
    const first = await node.send(address, '0.1');
    const seen = await live.next((e) => e.value.tx?.txid === first, 20_000);
    assert.equal(typeof seen.event_id, 'number', 'live events carry event_id');
    assert.ok(seen.event_id > 0);
    assert.equal(seen.value.address, address);

    pusher.disconnect();
    await waitFor(() => pusher.connection.state === 'disconnected', 10_000, 'disconnected');
    const missed: string[] = [];
    for (const amount of ['0.2', '0.3', '0.4']) missed.push(await node.send(address, amount));
    for (const txid of missed) await indexed(txid);
    assert.equal(live.events.length, 1, 'nothing arrived while disconnected');

    const caughtUp = new Promise<Live[]>((resolve, reject) => {
      pusher.connection.bind('connected', () => {
        httpJson(serve.port, `/api/v2/events/LTCTEST?channel=${channelName}&after=${lastId}`)
          .then((r) => {
            assert.equal(r.status, 200, JSON.stringify(r.body));
            resolve((r.body.data.events as { event: string; event_id: number; data: Live }[]).map((e) => {
              assert.equal(e.event, 'balance_update');
              assert.equal(e.data.event_id, e.event_id);
              return e.data;
            }));
          })
          .catch(reject);
      });
    });
    pusher.connect();
    const events = await caughtUp;
    assert.deepEqual(events.map((e) => e.value.tx?.txid), missed, 'all three missed payments, oldest first');
    assert.ok(events.every((e, i) => e.event_id > (i === 0 ? lastId : events[i - 1]!.event_id)), 'ids increase');
    assert.ok(events.every((e) => e.value.address === address && e.type === 'address'), 'as live: the channel spelling, type address');

    // Live again after the reconnect (pusher-js resubscribes), with ids above the caught-up ones.
    const next = await node.send(address, '0.5');
    const again = await live.next((e) => e.value.tx?.txid === next, 20_000);
    assert.ok(again.event_id > events[2]!.event_id);
  });

  it('pages with a cursor; the blockchain channel has block and tx events with ids', async () => {
    const blocks = await subscribed(pusher, 'blockchain_update_ltctest');
    const live = new Recorder<Live>(blocks, 'block_update');
    const [hash] = await node.mine(1);
    const block = await live.next(() => true, 20_000);
    assert.ok(block.event_id > 0, hash);
    const page = await httpJson(serve.port, `/api/v2/events/LTCTEST?channel=blockchain_update_ltctest&after=0&limit=2`);
    assert.equal(page.status, 200);
    assert.equal(page.body.data.events.length, 2);
    assert.equal(page.body.data.has_more, true);
    const rest = await httpJson(serve.port, `/api/v2/events/LTCTEST?channel=blockchain_update_ltctest&after=${page.body.data.cursor}`);
    const all = [...page.body.data.events, ...rest.body.data.events] as { event_id: number; event: string; data: Live }[];
    assert.ok(all.every((e, i) => i === 0 || e.event_id > all[i - 1]!.event_id), 'oldest first, no repeats across pages');
    assert.ok(all.some((e) => e.event === 'tx_update') && all.some((e) => e.event === 'block_update' && e.event_id === block.event_id));
    assert.equal(rest.body.data.has_more, false);
    assert.ok(rest.body.data.last_event_id >= block.event_id);
  });

  it('the feed gives what went out live, whole: a mempool payment, a payment first seen in a block and a coinbase', async () => {
    const address = await node.newAddress('bech32');
    const channelName = `address_ltctest_${address}`;
    const live = new Recorder<Live>(await subscribed(pusher, channelName), 'balance_update');
    const viaMempool = await node.send(address, '0.15');
    await live.next((e) => e.value.tx?.txid === viaMempool, 20_000);
    // Signed but never broadcast: the indexer first sees it in the block that generateblock makes. The event log
    // keeps such a tx as its txid only and the feed rebuilds its inputs and outputs from the index.
    const raw = await node.rpc.call<string>('createrawtransaction', [[], { [address]: '0.35' }]);
    const funded = await node.rpc.call<{ hex: string }>('fundrawtransaction', [raw]);
    const signed = await node.rpc.call<{ hex: string; complete: boolean }>('signrawtransactionwithwallet', [funded.hex]);
    assert.ok(signed.complete);
    const inBlock = (await node.rpc.call<{ txid: string }>('decoderawtransaction', [signed.hex])).txid;
    await node.rpc.call('generateblock', [address, [signed.hex]]);
    // The wallet hears of the block through the node's queue: later sends must not pick the coin it spent.
    await node.rpc.call('syncwithvalidationinterfacequeue', []);
    const blockEvents = [await live.next((e) => e.value.tx?.txid === inBlock, 20_000)];
    blockEvents.push(await live.next((e) => e.value.tx?.txid !== inBlock && e.value.tx?.txid !== viaMempool, 20_000));
    const sentLive = live.events.filter((e) => e.value.address === address);
    assert.equal(sentLive.length, 3, 'the mempool payment, the block payment and the coinbase');

    const feed = await httpJson(serve.port, `/api/v2/events/LTCTEST?channel=${channelName}&after=${sentLive[0]!.event_id - 1}`);
    assert.equal(feed.status, 200, JSON.stringify(feed.body));
    const fromFeed = (feed.body.data.events as { data: Live }[]).map((e) => e.data);
    assert.deepEqual(fromFeed, sentLive, 'every field as live, inputs and outputs included');
    const txOf = (txid: string) => fromFeed.find((e) => e.value.tx?.txid === txid)!.value.tx as unknown as { inputs: { value: string; address: string }[] };
    assert.equal(txOf(blockEvents[1]!.value.tx!.txid).inputs[0]!.address, 'coinbase');
    const paid = txOf(inBlock);
    assert.ok(paid.inputs.every((i) => i.value !== '0.00000000' && i.address.startsWith('rltc')), 'inputs with their spent outputs, from the index');
  });

  it('a cursor the log cannot answer is 410 "resync"; a wrong channel is 404, both in the v2 shape', async () => {
    const gone = await httpJson(serve.port, '/api/v2/events/LTCTEST?channel=blockchain_update_ltctest&after=999999999');
    assert.equal(gone.status, 410);
    assert.equal(gone.body.status, 'fail');
    assert.match(gone.body.data.after, /resync/);
    const wrong = await httpJson(serve.port, '/api/v2/events/LTCTEST?channel=ticker_ltc_usd&after=0');
    assert.equal(wrong.status, 404);
    assert.match(wrong.body.data.channel, /ticker channels have no event ids/);
    const badAddress = await httpJson(serve.port, '/api/v2/events/LTCTEST?channel=address_ltctest_nope&after=0');
    assert.equal(badAddress.status, 404);
    assert.match(badAddress.body.data.channel, /not a valid/);
    const noCursor = await httpJson(serve.port, '/api/v2/events/LTCTEST?channel=blockchain_update_ltctest');
    assert.equal(noCursor.status, 404);
    const otherNetwork = await httpJson(serve.port, '/api/v2/events/BTC?channel=blockchain_update_btc&after=0');
    assert.equal(otherNetwork.status, 404);
  });
});
