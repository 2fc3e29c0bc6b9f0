/**
 * Electrum subscriptions on bitcoind regtest (ZMQ), both engines at once on one node (issue 49): a subscribed
 * scripthash is notified with its new status, equal to the status computed from the node, when a payment enters the
 * mempool, when a tx spending its output depends on an unconfirmed parent, when a block confirms them and when a
 * reorg moves them back to the mempool and into another block; headers.subscribe is notified of each new tip, the
 * lower one of a reorg included. An unsubscribed scripthash is not notified. Each server runs its Electrum listeners in
 * two worker processes (`[electrum] processes = 2`), so every notification crosses from the indexer's bus to a worker.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startElectrumServe, type ElectrumServe } from '../helpers/electrum-serve.js';
import { nodeElectrumView } from '../helpers/electrum-oracle.js';
import { scriptOf, spendTo, voutTo } from '../helpers/electrum-scenario.js';
import { scripthashOf, type ElectrumTestClient } from '../helpers/electrum-test-client.js';
import { startBitcoind, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines, testEngines } from '../helpers/store-engines.js';

let btc: RegtestNode;
const engines = new StoreEngines();
const servers: { engine: string; server: ElectrumServe; client: ElectrumTestClient }[] = [];
let address: string;
let script: string;
let sh: string;

before(async () => {
  btc = await startBitcoind({ funded: true });
  address = await btc.newAddress('bech32');
  script = await scriptOf(btc, address);
  sh = scripthashOf(Buffer.from(script, 'hex'));
  for (const engine of testEngines()) {
    // Two Electrum worker processes: notifications reach subscribers through the serving process's forwarding.
    const server = await startElectrumServe(btc, (await engines.create(engine)).url, { electrum: { processes: '2' } });
    await server.caughtUp(btc);
    const client = await server.connect();
    await client.request('server.version', ['subscriber', '1.6']);
    servers.push({ engine, server, client });
  }
});

after(async () => {
  for (const { server, client } of servers) {
    client.close();
    await server.stop();
  }
  await btc?.stop();
  await engines.close();
});

/** Each server notifies the scripthash with the status the node implies now (the first such notification after `from`). */
async function notifiedAsNode(from: number[], what: string): Promise<void> {
  const expected = (await nodeElectrumView(btc.rpc, [script])).get(script)!.status;
  await Promise.all(servers.map(async ({ engine, client }, i) => {
    const n = await client.nextNotification('blockchain.scripthash.subscribe', (p) => p[0] === sh && p[1] === expected, from[i]);
    assert.deepEqual(n.params, [sh, expected], `${engine}: ${what}`);
  }));
}

const marks = (): number[] => servers.map(({ client }) => client.notifications.length);

describe('Electrum subscriptions on bitcoind, both engines', () => {
  it('answers the status at once and notifies each change: payment, dependent spend, confirmation', async () => {
    for (const { client } of servers) {
      assert.equal(await client.request('blockchain.scripthash.subscribe', [sh]), null, 'no history yet');
      assert.equal((await client.request<{ height: number }>('blockchain.headers.subscribe')).height, await btc.rpc.call('getblockcount'));
    }
    let from = marks();
    const started = performance.now();
    const paid = await btc.send(address, '1.25');
    await notifiedAsNode(from, 'a payment in the mempool');
    const seconds = (performance.now() - started) / 1000;
    assert.ok(seconds < 10, `notified ${seconds.toFixed(2)} s after the payment`);
    // A spend of that unconfirmed output: height -1 in its status.
    from = marks();
    await spendTo(btc, paid, await voutTo(btc, paid, script), await btc.newAddress('bech32'));
    await notifiedAsNode(from, 'a spend depending on an unconfirmed parent');
    from = marks();
    const [hash] = await btc.mine(1);
    await notifiedAsNode(from, 'both confirmed');
    const tip = await btc.rpc.call<number>('getblockcount');
    for (const [i, { client }] of servers.entries()) {
      const header = await client.nextNotification('blockchain.headers.subscribe', (p) => (p[0] as { height: number }).height === tip, from[i]);
      assert.deepEqual(header.params, [{ height: tip, hex: await btc.rpc.call('getblockheader', [hash, false]) }]);
    }
  });

  it('re-notifies a reorg: back to the mempool, then into the other branch', async () => {
    const tip = await btc.rpc.call<string>('getbestblockhash');
    const height = await btc.rpc.call<number>('getblockcount');
    let from = marks();
    await btc.rpc.call('invalidateblock', [tip]);
    await notifiedAsNode(from, 'the reorg put its txs back in the mempool');
    for (const [i, { client }] of servers.entries()) {
      await client.nextNotification('blockchain.headers.subscribe', (p) => (p[0] as { height: number }).height === height - 1, from[i]);
    }
    from = marks();
    await btc.mine(2);
    await notifiedAsNode(from, 'confirmed in the other branch');
    for (const [i, { client }] of servers.entries()) {
      await client.nextNotification('blockchain.headers.subscribe', (p) => (p[0] as { height: number }).height === height + 1, from[i]);
    }
  });

  it('stops notifying an unsubscribed scripthash', async () => {
    for (const { client } of servers) assert.equal(await client.request('blockchain.scripthash.unsubscribe', [sh]), true);
    const other = await btc.newAddress('bech32');
    const otherSh = scripthashOf(Buffer.from(await scriptOf(btc, other), 'hex'));
    for (const { client } of servers) assert.equal(await client.request('blockchain.scripthash.subscribe', [otherSh]), null);
    const from = marks();
    await btc.send(address, '0.5');
    await btc.send(other, '0.5');
    // The other scripthash's notification comes after the first payment's would have: none for the unsubscribed one.
    for (const [i, { client }] of servers.entries()) {
      await client.nextNotification('blockchain.scripthash.subscribe', (p) => p[0] === otherSh, from[i]);
      assert.equal(client.notifications.slice(from[i]).filter((n) => n.params[0] === sh).length, 0);
    }
  });
});
