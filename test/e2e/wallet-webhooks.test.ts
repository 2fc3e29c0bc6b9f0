/* eslint-disable @typescript-eslint/no-explicit-any -- webhook bodies and realtime events are checked field by field */
/**
 * Issue 50, a payment processor's loop: a 2-of-3 wsh(sortedmulti) multipath wallet watched by a `wallet` webhook and
 * by pusher-js on its wallet channel, on `outpoint serve` (SQLite and PostgreSQL) over bitcoind regtest. 20 invoices
 * are paid in order, each at the wallet's next address: nine, then one at `last_used + gap`, then ten past it (the
 * window moved); one is replaced by a fee bump; the services are killed with SIGKILL after the tenth and two invoices
 * are paid while they are down. The receiver gets exactly one delivery per tx and state (first sight with the
 * wallet's net and each address with its path, the first confirmation, the double spend of the replaced tx); the
 * wallet channel carries the same txs live, and after the drop the catch-up feed fills the gap.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateApiKey } from '../../src/services/accounts/api-keys.js';
import { connected, pusherClient, Recorder, subscribed, type Pusher } from '../helpers/pusher-clients.js';
import { startBitcoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { httpJson, startServe, type ServeProcess } from '../helpers/serve-process.js';
import { StoreEngines, testEngines } from '../helpers/store-engines.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { Cosigner, MultisigWallet } from './multisig-fixture.js';
import { withChecksum } from './wallet-fixture.js';

const GAP = 5;
const dir = mkdtempSync(join(tmpdir(), 'outpoint-wallet-hooks-'));
const engines = new StoreEngines();
const wallet = new MultisigWallet('shop', [61, 62, 63].map((s) => new Cosigner(s, 2)), (k) => `wsh(sortedmulti(2,${k.join(',')}))`);
const DESCRIPTOR = withChecksum(wallet.descriptor('<0;1>/*'));
const CHECKSUM = DESCRIPTOR.slice(-8);
const CHANNEL = `wallet_btctest_${CHECKSUM}`;

interface Site {
  readonly engine: string;
  readonly config: string;
  readonly key: string;
  readonly receiver: WebhookReceiver;
  serve: ServeProcess;
  pusher: Pusher;
  live: Recorder<any>;
  ds: Recorder<any>;
  /** The last event_id received live or from the feed. */
  lastId: number;
  /** Every wallet channel event received, live or from the feed, by event_id. */
  readonly seen: Map<number, any>;
}

let node: RegtestNode;
const sites: Site[] = [];
const invoices: { index: number; amount: string; txid: string }[] = [];

async function follow(site: Site): Promise<void> {
  site.pusher = pusherClient(site.serve.port, 'outpoint');
  await connected(site.pusher);
  const channel = await subscribed(site.pusher, CHANNEL);
  site.live = new Recorder<any>(channel, 'balance_update');
  site.ds = new Recorder<any>(channel, 'double_spend');
  for (const name of ['balance_update', 'double_spend']) {
    channel.bind(name, (data: any) => {
      site.seen.set(data.event_id, { event: name, ...data });
      site.lastId = Math.max(site.lastId, data.event_id);
    });
  }
}

/** The wallet channel's events after the last one received, page after page (the catch-up recipe of docs/realtime.md). */
async function catchUp(site: Site): Promise<void> {
  for (let more = true; more;) {
    const reply = await httpJson(site.serve.port, `/api/v2/events/BTCTEST?channel=${CHANNEL}&after=${site.lastId}`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    for (const e of reply.body.data.events) site.seen.set(e.event_id, { event: e.event, ...e.data });
    site.lastId = Math.max(site.lastId, reply.body.data.cursor);
    more = reply.body.data.has_more;
  }
}

const deliveries = (site: Site): any[] => {
  // De-duplicated on X-Outpoint-Delivery as receivers are told to (an answer lost to the kill may come again).
  const byId = new Map<string, any>();
  for (const call of site.receiver.calls) byId.set(String(call.headers['x-outpoint-delivery']), call.json);
  return [...byId.values()];
};

async function delivered(predicate: (body: any) => boolean, what: string): Promise<void> {
  for (const site of sites) await waitFor(() => deliveries(site).some(predicate), 60_000, `${site.engine}: ${what}`);
}

async function start(site: Site, port?: number): Promise<void> {
  site.serve = await startServe(site.config, { readyNetwork: 'BTCTEST', ...(port ? { port } : {}) });
}

before(async () => {
  node = await startBitcoind({ funded: true });
  for (const engine of testEngines()) {
    const test = await engines.create(engine);
    const accounts = test.store.accounts();
    await accounts.setPlan('e2e', 1_000_000, 1);
    const account = await accounts.createAccount({ email: 'shop@example.com', plan: 'e2e', createdAt: 1, periodEndsAt: 4_000_000_000, willRenew: true });
    const key = generateApiKey();
    await accounts.addKey({ accountId: account.id, prefix: key.prefix, hash: key.hash, createdAt: 1 });
    const config = join(dir, `${engine}.toml`);
    writeFileSync(config, `data_dir = "${join(dir, engine)}"\n[store]\nurl = "${test.url}"\n[http]\nrate_limit_per_second = 0\n[market]\nsources = []\n` +
      `[webhooks]\nallow_private_targets = true\n[networks.BTCTEST]\nchain = "regtest"\nrpc_url = "${node.rpcUrl}"\npoll_ms = 100\n`);
    const receiver = new WebhookReceiver();
    await receiver.listen();
    const site = { engine, config, key: key.key, receiver, lastId: 0, seen: new Map() } as unknown as Site;
    await start(site);
    sites.push(site);
  }
});

after(async () => {
  for (const site of sites) {
    site.pusher?.disconnect();
    await site.serve?.stop();
    await site.receiver.close();
  }
  await node?.stop();
  await engines.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('wallet webhooks and the wallet channel (issue 50)', () => {
  it('20 invoices at the next addresses, one at last_used + gap, one fee-bumped, a SIGKILL in the middle: one delivery per tx and state', async () => {
    for (const site of sites) {
      const made = await httpJson(site.serve.port, '/api/v3/webhooks', {
        method: 'POST', headers: { 'API-KEY': site.key, 'content-type': 'application/json' },
        body: JSON.stringify({ network: 'BTCTEST', event: 'wallet', url: site.receiver.url(), descriptor: DESCRIPTOR, gap: GAP }),
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      assert.deepEqual([made.body.data.wallet, made.body.data.gap, made.body.data.descriptor], [CHECKSUM, GAP, DESCRIPTOR]);
      await follow(site);
    }
    await new Promise((resolve) => setTimeout(resolve, 2500)); // the writer's index of hooks reloads every 2 s

    invoices.length = 0;
    let replaced = '';
    const pay = async (index: number): Promise<void> => {
      const amount = (0.001 * (invoices.length + 1)).toFixed(8);
      const txid = await node.send(wallet.address(0, index), amount);
      invoices.push({ index, amount, txid });
      await delivered((b) => b.txid === txid && b.confirmations === 0, `first sight of invoice ${index}`);
    };
    // Nine invoices at indexes 0-8, the fifth replaced by a fee bump; a block after the third and the seventh.
    for (let index = 0; index < 9; index++) {
      await pay(index);
      if (index === 4) {
        replaced = invoices[4]!.txid;
        const { txid } = await node.wallet.call<{ txid: string }>('bumpfee', [replaced]);
        invoices[4] = { ...invoices[4]!, txid };
        await delivered((b) => b.txid === txid && b.confirmations === 0, 'first sight of the replacement');
        await delivered((b) => b.txid === replaced && b.double_spend === true, 'the double spend of the replaced tx');
      }
      if (index === 2 || index === 6) await node.mine(1);
    }
    // last_used (8) + gap: reported, and the window then reaches 13 + gap.
    await pay(8 + GAP);

    // SIGKILL; two invoices paid while the services are down; a restart on the same ports.
    const ports = sites.map((s) => s.serve.port);
    for (const site of sites) {
      // The client drops first and comes back after the restart's events: what it missed is only in the feed.
      site.pusher.disconnect();
      site.serve.child.kill('SIGKILL');
      await new Promise((resolve) => site.serve.child.once('exit', resolve));
    }
    for (const index of [14, 15]) {
      const amount = (0.001 * (invoices.length + 1)).toFixed(8);
      invoices.push({ index, amount, txid: await node.send(wallet.address(0, index), amount) });
    }
    for (const [i, site] of sites.entries()) await start(site, ports[i]);
    for (const { txid } of invoices.slice(-2)) await delivered((b) => b.txid === txid && b.confirmations === 0, `first sight of ${txid} after the restart`);
    for (const site of sites) {
      site.pusher.connect();
      await waitFor(() => site.pusher.connection.state === 'connected', 60_000, 'pusher-js reconnected');
      await catchUp(site);
    }
    for (let index = 16; index < 24; index++) await pay(index);
    assert.equal(invoices.length, 20);
    await node.mine(1);
    for (const { txid } of invoices) await delivered((b) => b.txid === txid && b.confirmations === 1, `confirmation of ${txid}`);

    for (const site of sites) {
      const all = deliveries(site);
      for (const [n, invoice] of invoices.entries()) {
        const of = all.filter((b) => b.txid === invoice.txid);
        const seen = of.filter((b) => b.confirmations === 0 && !b.double_spend);
        const confirmed = of.filter((b) => b.confirmations === 1);
        assert.equal(seen.length, 1, `${site.engine} invoice ${n}: one first sight (${JSON.stringify(of)})`);
        assert.equal(confirmed.length, 1, `${site.engine} invoice ${n}: one confirmation`);
        assert.equal(of.length, 2, `${site.engine} invoice ${n}: nothing else`);
        const [first] = seen;
        assert.deepEqual([first.event, first.network, first.wallet, first.balance_change, first.value_sent], ['wallet', 'BTCTEST', CHECKSUM, invoice.amount, '0.00000000']);
        assert.deepEqual(first.addresses.map((a: any) => [a.address, a.path]), [[wallet.address(0, invoice.index), `0/${invoice.index}`]]);
        assert.equal(confirmed[0].reorg, false);
      }
      const original = all.filter((b) => b.txid === replaced);
      assert.deepEqual(original.map((b) => (b.double_spend ? `ds:${b.reason}` : `c${b.confirmations}`)).sort(), ['c0', 'ds:replaced'], `${site.engine}: the replaced tx`);
      assert.deepEqual(original.find((b) => b.double_spend).conflicting_txids, [invoices[4]!.txid]);
      assert.equal(all.length, 20 * 2 + 2, `${site.engine}: no other delivery`);

      // The channel, live and caught up: every tx once, first sight, and the double spend.
      await waitFor(async () => {
        await catchUp(site);
        return [...site.seen.values()].filter((e) => e.event === 'balance_update').length >= 21;
      }, 30_000, `${site.engine}: every wallet channel event`);
      const events = [...site.seen.values()];
      const updates = events.filter((e) => e.event === 'balance_update').map((e) => e.value.txid).sort();
      assert.deepEqual(updates, [...invoices.map((i) => i.txid), replaced].sort(), `${site.engine}: one balance_update per tx`);
      const doubleSpends = events.filter((e) => e.event === 'double_spend');
      assert.deepEqual(doubleSpends.map((e) => e.value.txid), [replaced]);
      const missed = invoices.slice(10, 12).map((i) => i.txid);
      for (const txid of missed) assert.ok(site.live.events.every((e) => e.value.txid !== txid), 'paid while down: not live');
      const fed = events.find((e) => e.value.txid === invoices[10]!.txid);
      assert.deepEqual([fed.value.wallet, fed.value.balance_change, fed.value.addresses[0].path], [CHECKSUM, invoices[10]!.amount, '0/14'], 'from the feed, as live');
    }
  });

  it('a reorg that un-confirms the last block delivers the change for its txs once, and their confirmation in the new block', async () => {
    const tip = await node.rpc.call<string>('getbestblockhash');
    const inTip = new Set((await node.rpc.call<{ tx: string[] }>('getblock', [tip])).tx);
    const moved = invoices.filter((i) => inTip.has(i.txid)).map((i) => i.txid);
    assert.ok(moved.length >= 8, `the last block holds the last invoices (${moved.length})`);
    await node.rpc.call('invalidateblock', [tip]);
    for (const txid of moved) await delivered((b) => b.txid === txid && b.reorg === true && b.confirmations === 0, `the reorg of ${txid}`);
    // Another block takes its place (a real reorg: the txs confirm in a block of another hash).
    await waitFor(async () => (await node.rpc.call<string[]>('getrawmempool')).length >= moved.length, 30_000, 'the txs back in the mempool');
    await node.mine(1);
    for (const site of sites) {
      for (const txid of moved) {
        await waitFor(() => deliveries(site).filter((b) => b.txid === txid && b.confirmations === 1).length === 2, 60_000, `${site.engine}: ${txid} confirmed again`);
      }
    }
    for (const site of sites) {
      const all = deliveries(site);
      for (const { txid } of invoices) {
        const of = all.filter((b) => b.txid === txid).map((b) => `${b.confirmations}${b.reorg ? ':reorg' : ''}`).sort();
        assert.deepEqual(of, moved.includes(txid) ? ['0', '0:reorg', '1', '1'] : ['0', '1'], `${site.engine} ${txid}`);
      }
    }
  });
});
