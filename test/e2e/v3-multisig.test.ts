/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies and node replies are checked field by field */
/**
 * Multisig wallets (issue 50) through the v3 xpub routes of `outpoint serve` as operators run it, on SQLite and on
 * PostgreSQL, over bitcoind (Knots 29) regtest: a 2-of-3 wsh(sortedmulti) multipath wallet and a 2-of-3
 * sh(wsh(multi)) wallet, each held by two node descriptor wallets with one cosigner's private key each. They receive,
 * spend to someone else with change to their change chain (a PSBT signed by both wallets, combined and finalised),
 * transfer to themselves, and receive in the mempool; every figure equals the node wallet's: getbalances,
 * listtransactions/gettransaction nets, listunspent with paths, getaddressinfo paths; our addresses and checksums
 * equal deriveaddresses/getdescriptorinfo. combo() and addr() wallets equal node wallets watching those descriptors.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { formatCoins } from '../../src/core/domain/money.js';
import { generateApiKey } from '../../src/services/accounts/api-keys.js';
import { startBitcoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { httpJson, startServe, type ServeProcess } from '../helpers/serve-process.js';
import { StoreEngines } from '../helpers/store-engines.js';
import { Cosigner, externalFlows, MultisigWallet } from './multisig-fixture.js';
import { nodePath, sats, withChecksum } from './wallet-fixture.js';

const engines = new StoreEngines();
const dir = mkdtempSync(join(tmpdir(), 'outpoint-multisig-'));
let node: RegtestNode;
const serves: { engine: string; serve: ServeProcess; key: string }[] = [];
const txids: Record<string, string> = {};

const wshWallet = new MultisigWallet('wsh', [41, 42, 43].map((s) => new Cosigner(s, 2)), (k) => `wsh(sortedmulti(2,${k.join(',')}))`);
const shWshWallet = new MultisigWallet('shwsh', [51, 52, 53].map((s) => new Cosigner(s, 1)), (k) => `sh(wsh(multi(2,${k.join(',')})))`);
const WSH = withChecksum(wshWallet.descriptor('<0;1>/*'));
/** combo() of one cosigner key's receive chain, and addr() of one address: watched by node wallets of their own. */
const COMBO = withChecksum(`combo(${new Cosigner(44, 2).key('0/*')})`);
let ADDR = '';
const SH_WSH = withChecksum(shWshWallet.descriptor('<0;1>/*'));

const v3 = (wallet: string, tail = '') => `/api/v3/xpub/BTCTEST/${encodeURIComponent(wallet)}${tail}`;

/** GET on every serve (each engine), each answer checked by `check`. */
async function onEach(path: string, check: (data: any, engine: string) => void | Promise<void>): Promise<void> {
  for (const { engine, serve, key } of serves) {
    const reply = await httpJson(serve.port, path, { headers: { 'API-KEY': key } });
    assert.equal(reply.status, 200, `${engine} ${path}: ${JSON.stringify(reply.body)}`);
    await check(reply.body.data, engine);
  }
}

async function allPages(port: number, key: string, wallet: string, route: string, field: string): Promise<any[]> {
  const items: any[] = [];
  for (let page = 1; ; page++) {
    const reply = await httpJson(port, v3(wallet, `/${route}/${page}`), { headers: { 'API-KEY': key } });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    if (reply.body.data[field].length === 0) return items;
    items.push(...reply.body.data[field]);
  }
}

/** Until every serve has the node's tip and mempool. */
async function synced(): Promise<void> {
  const height = await node.rpc.call<number>('getblockcount');
  const mempool = (await node.rpc.call<string[]>('getrawmempool')).length;
  for (const { serve } of serves) {
    await waitFor(async () => {
      const info = (await httpJson(serve.port, '/api/v2/get_info/BTCTEST')).body.data;
      return info?.blocks === height && info?.unconfirmed_txs === mempool;
    }, 60_000, `serve at height ${height} with ${mempool} mempool txs`);
  }
}

before(async () => {
  node = await startBitcoind({ funded: true });
  for (const engine of ['sqlite', 'postgres'] as const) {
    const test = await engines.create(engine);
    const accounts = test.store.accounts();
    await accounts.setPlan('e2e', 1_000_000, 1);
    const account = await accounts.createAccount({ email: 'multisig@example.com', plan: 'e2e', createdAt: 1, periodEndsAt: 4_000_000_000, willRenew: true });
    const key = generateApiKey();
    await accounts.addKey({ accountId: account.id, prefix: key.prefix, hash: key.hash, createdAt: 1 });
    const config = join(dir, `${engine}.toml`);
    writeFileSync(config, `data_dir = "${join(dir, engine)}"\n[store]\nurl = "${test.url}"\n[http]\nrate_limit_per_second = 0\n[market]\nsources = []\n` +
      `[networks.BTCTEST]\nchain = "regtest"\nrpc_url = "${node.rpcUrl}"\npoll_ms = 100\n`);
    serves.push({ engine, serve: await startServe(config, { readyNetwork: 'BTCTEST' }), key: key.key });
  }
  await wshWallet.importInto(node, 2);
  await shWshWallet.importInto(node, 2);
  // wsh: receive 0, 2 and 5, then a spend to someone else (change: change 0), a transfer to itself (receive 6, change
  // 1), and a payment to receive 3 left in the mempool. sh(wsh): receive 0 and 1, then a spend with change.
  txids.r0 = await node.send(wshWallet.address(0, 0), '1.0');
  txids.r2 = await node.send(wshWallet.address(0, 2), '0.5');
  txids.r5 = await node.send(wshWallet.address(0, 5), '0.25');
  await node.send(shWshWallet.address(0, 0), '0.8');
  await node.send(shWshWallet.address(0, 1), '0.4');
  // Watching wallets first (an import rescans blocks, not the mempool). combo: index 0's P2WPKH, index 1's P2PKH,
  // index 3's P2SH-P2WPKH (deriveaddresses lists an index's three forms with an address).
  // A taproot address no node wallet owns (a wallet would spend its coins as its own).
  const [taproot] = await node.rpc.call<string[]>('deriveaddresses', [withChecksum(`tr(${new Cosigner(45, 2).key('0/*')})`), [0, 0]]);
  ADDR = withChecksum(`addr(${taproot})`);
  for (const [name, desc, range] of [['combo', COMBO, [0, 20]], ['addr', ADDR, undefined]] as const) {
    await node.rpc.call('createwallet', [name, true, true, '', false, true, true]);
    const results = await node.client({ url: `${node.rpcUrl}wallet/${name}` }).call<{ success: boolean }[]>('importdescriptors', [[{ desc, timestamp: 'now', ...(range ? { range } : {}) }]]);
    assert.ok(results.every((r) => r.success), `importdescriptors ${name}`);
  }
  const comboAddresses = await node.rpc.call<string[]>('deriveaddresses', [COMBO, [0, 4]]);
  await node.send(comboAddresses[1]!, '0.11');
  await node.send(comboAddresses[3]!, '0.12');
  await node.send(comboAddresses[11]!, '0.13');
  await node.send(ADDR.slice(5, ADDR.indexOf(')')), '0.21');
  await node.send(ADDR.slice(5, ADDR.indexOf(')')), '0.22');
  await node.mine(1);
  txids.spend = await wshWallet.spend(node, { [await node.newAddress()]: '0.7' });
  txids.shSpend = await shWshWallet.spend(node, { [await node.newAddress()]: '0.5' });
  await node.mine(1);
  txids.self = await wshWallet.spend(node, { [wshWallet.address(0, 6)]: '0.3' });
  await node.mine(1);
  txids.mempool = await node.send(wshWallet.address(0, 3), '0.05');
  await synced();
});

after(async () => {
  for (const { serve } of serves) await serve.stop();
  await node?.stop();
  await engines.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('multisig descriptors against the node (deriveaddresses, getdescriptorinfo)', () => {
  it('our addresses and checksums are the node\'s, for both wallets and both chains', async () => {
    for (const wallet of [wshWallet, shWshWallet]) {
      for (const chain of [0, 1]) {
        const desc = withChecksum(wallet.descriptor(`${chain}/*`));
        const info = await node.rpc.call<any>('getdescriptorinfo', [desc]);
        assert.equal(`${wallet.descriptor(`${chain}/*`)}#${info.checksum}`, desc);
        const addresses = await node.rpc.call<string[]>('deriveaddresses', [desc, [0, 20]]);
        assert.deepEqual(addresses, Array.from({ length: 21 }, (_, i) => wallet.address(chain, i)), `${wallet.name} chain ${chain}`);
      }
    }
  });

  it('the spends carry two signatures: the witness is empty, two signatures, the witness script', async () => {
    for (const txid of [txids.spend!, txids.shSpend!]) {
      const tx = await node.rpc.call<any>('getrawtransaction', [txid, true]);
      for (const input of tx.vin) {
        assert.equal(input.txinwitness.length, 4, txid);
        assert.equal(input.txinwitness[0], '');
        assert.match(input.txinwitness[3], /^52(21[0-9a-f]{66}){3}53ae$/, '2 <3 keys> 3 CHECKMULTISIG');
      }
    }
  });
});

describe('v3 xpub on outpoint serve, SQLite and PostgreSQL: a 2-of-3 wsh(sortedmulti) multipath wallet', () => {
  it('the summary equals the node wallet: balances, transaction count, external flows, next addresses, policy', async () => {
    const view = await wshWallet.nodeView();
    const flows = externalFlows(view);
    await onEach(v3(WSH), (d) => {
      assert.equal(d.confirmed_balance, formatCoins(sats(view.balances.trusted)));
      assert.equal(d.unconfirmed_balance, formatCoins(sats(view.balances.untrusted_pending)));
      assert.equal(d.unconfirmed_balance, '0.05000000');
      assert.equal(d.txs_total, view.net.size);
      assert.equal(d.confirmed_received_external, formatCoins(flows.received));
      assert.equal(d.confirmed_sent_external, formatCoins(flows.sent));
      assert.equal(d.confirmed_received_external, '1.75000000', 'the three receipts; the transfer to itself is no receipt');
      assert.equal(sats(d.confirmed_received_external) - sats(d.confirmed_sent_external), sats(d.confirmed_balance));
      assert.ok(sats(d.confirmed_received) > sats(d.confirmed_received_external), 'per address, change and the transfer count as received');
      // Used: receive 0, 2, 3 (mempool), 5, 6 and change 0, 1.
      assert.equal(d.used_addresses, 7);
      assert.deepEqual(d.next_receive_address, { address: wshWallet.address(0, 7), path: '0/7' });
      assert.deepEqual(d.next_change_address, { address: wshWallet.address(1, 2), path: '1/2' });
      assert.equal(d.descriptor, WSH, 'already normalised: the same text back');
      assert.equal(d.script_form, 'wsh(sortedmulti)');
      assert.equal(d.threshold, 2);
      assert.deepEqual(d.keys, wshWallet.cosigners.map((c) => ({ key: c.account.publicExtendedKey, fingerprint: c.fingerprint, origin_path: '48h/1h/0h/2h', path: '<0;1>/*' })));
    });
  });

  it('transactions: each with the node wallet\'s net and block, newest first, mempool first', async () => {
    const view = await wshWallet.nodeView();
    for (const { engine, serve, key } of serves) {
      const txs = await allPages(serve.port, key, WSH, 'transactions', 'transactions');
      assert.equal(txs.length, view.net.size, engine);
      assert.equal(txs[0].hash, txids.mempool);
      for (const t of txs) {
        const ours = view.net.get(t.hash);
        assert.ok(ours, `${engine}: ${t.hash} is the node wallet's`);
        assert.equal(t.balance_change, formatCoins(ours.net), `${engine} ${t.hash}`);
        assert.equal(t.block, ours.height, `${engine} ${t.hash}`);
      }
      const self = txs.find((t) => t.hash === txids.self);
      const fee = (await wshWallet.signers[0]!.call<any>('gettransaction', [txids.self], { exactDecimals: true })).fee;
      assert.equal(self.balance_change, formatCoins(sats(fee)), 'the transfer to itself nets to minus its fee');
    }
  });

  it('unspent outputs with their paths equal listunspent', async () => {
    const view = await wshWallet.nodeView();
    const theirs = view.unspent.map((u) => `${u.txid}:${u.vout} ${formatCoins(sats(u.amount))} ${u.address} ${nodePath(u.desc)} ${u.confirmations === 0 ? 'mempool' : 'confirmed'}`).sort();
    for (const { engine, serve, key } of serves) {
      const outputs = await allPages(serve.port, key, WSH, 'unspent_outputs', 'outputs');
      const ours = outputs.map((o) => `${o.hash}:${o.index} ${o.value} ${o.address} ${o.path} ${o.block === null ? 'mempool' : 'confirmed'}`).sort();
      assert.deepEqual(ours, theirs, engine);
      assert.ok(outputs.some((o) => o.path.startsWith('1/')), 'change on the change chain');
    }
  });

  it('used addresses: each path is getaddressinfo\'s, each balance the node wallet\'s', async () => {
    const view = await wshWallet.nodeView();
    await onEach(v3(WSH, '/addresses'), async (d, engine) => {
      assert.deepEqual(d.addresses.map((a: any) => a.path), ['0/0', '0/2', '0/3', '0/5', '0/6', '1/0', '1/1'], engine);
      for (const a of d.addresses) {
        const info = await wshWallet.signers[0]!.call<any>('getaddressinfo', [a.address]);
        assert.equal(info.ismine, true, a.address);
        assert.equal(nodePath(info.desc), a.path, `${engine}: getaddressinfo ${a.address}`);
        // The node infers the address's own script (its keys sorted) and names the descriptor it comes from.
        assert.match(info.desc, /^wsh\(multi\(2,\[/);
        assert.equal(info.parent_desc, withChecksum(wshWallet.descriptor(`${a.path.split('/')[0]}/*`)));
        const confirmed = view.unspent.filter((u) => u.address === a.address && u.confirmations > 0).reduce((s, u) => s + sats(u.amount), 0n);
        assert.equal(a.confirmed_balance, formatCoins(confirmed), `${engine} ${a.path}`);
      }
    });
  });

  it('a single-chain form of the same keys reads the receive chain only; spellings normalise to one descriptor', async () => {
    const receive = withChecksum(wshWallet.descriptor('0/*'));
    const view = await wshWallet.nodeView();
    const onReceive = view.unspent.filter((u) => nodePath(u.desc).startsWith('0/') && u.confirmations > 0).reduce((s, u) => s + sats(u.amount), 0n);
    await onEach(v3(receive), (d) => {
      assert.equal(d.confirmed_balance, formatCoins(onReceive));
      assert.equal(d.next_change_address, null);
    });
    // Apostrophes for hardened steps and no checksum: the same wallet, written the normal way.
    await onEach(v3(wshWallet.descriptor('<0;1>/*').replace(/h\//g, "'/").replace(/h\]/g, "']")), (d) => assert.equal(d.descriptor, WSH));
  });
});

describe('v3 xpub on outpoint serve, SQLite and PostgreSQL: combo() and addr() as wallets', () => {
  it('combo: an index is used when any of its forms is; the figures equal a node wallet watching the descriptor', async () => {
    const watcher = node.client({ url: `${node.rpcUrl}wallet/combo` });
    const balances = (await watcher.call<any>('getbalances', [], { exactDecimals: true })).mine;
    const unspent = await watcher.call<any[]>('listunspent', [0], { exactDecimals: true });
    const next = (await node.rpc.call<string[]>('deriveaddresses', [COMBO, [4, 4]]))[0];
    await onEach(v3(COMBO), (d) => {
      assert.equal(d.confirmed_balance, formatCoins(sats(balances.trusted)));
      assert.equal(d.confirmed_balance, '0.36000000');
      assert.equal(d.used_addresses, 3);
      assert.deepEqual(d.next_receive_address, { address: next, path: '0/4' }, 'index 4 (after 3, the last used), in its P2PKH form');
      assert.deepEqual([d.script_form, d.threshold, d.next_change_address], ['combo', null, null]);
    });
    await onEach(v3(COMBO, '/addresses'), (d) => {
      assert.deepEqual(d.addresses.map((a: any) => `${a.path} ${a.address}`).sort(), unspent.map((u) => `${nodePath(u.desc)} ${u.address}`).sort());
    });
  });

  it('addr: the one address, its two payments, its address handed out again', async () => {
    const watcher = node.client({ url: `${node.rpcUrl}wallet/addr` });
    const balances = (await watcher.call<any>('getbalances', [], { exactDecimals: true })).mine;
    const address = ADDR.slice(5, ADDR.indexOf(')'));
    await onEach(v3(ADDR), (d) => {
      assert.equal(d.confirmed_balance, formatCoins(sats(balances.trusted)));
      assert.equal(d.confirmed_balance, '0.43000000');
      assert.equal(d.txs_total, 2);
      assert.deepEqual(d.next_receive_address, { address, path: null });
      assert.deepEqual([d.script_form, d.keys, d.descriptor], ['addr', [], ADDR]);
    });
  });
});

describe('v3 xpub on outpoint serve, SQLite and PostgreSQL: a 2-of-3 sh(wsh(multi)) wallet', () => {
  it('summary, transactions and unspent outputs equal the node wallet', async () => {
    const view = await shWshWallet.nodeView();
    const flows = externalFlows(view);
    await onEach(v3(SH_WSH), (d) => {
      assert.equal(d.confirmed_balance, formatCoins(sats(view.balances.trusted)));
      assert.equal(d.unconfirmed_balance, '0.00000000');
      assert.equal(d.txs_total, view.net.size);
      assert.equal(d.confirmed_received_external, formatCoins(flows.received));
      assert.equal(d.confirmed_sent_external, formatCoins(flows.sent));
      assert.equal(d.script_form, 'sh(wsh(multi))');
      assert.deepEqual(d.next_change_address, { address: shWshWallet.address(1, 1), path: '1/1' });
    });
    const theirs = view.unspent.map((u) => `${u.txid}:${u.vout} ${formatCoins(sats(u.amount))} ${u.address} ${nodePath(u.desc)}`).sort();
    for (const { engine, serve, key } of serves) {
      const outputs = await allPages(serve.port, key, SH_WSH, 'unspent_outputs', 'outputs');
      assert.deepEqual(outputs.map((o) => `${o.hash}:${o.index} ${o.value} ${o.address} ${o.path}`).sort(), theirs, engine);
      const txs = await allPages(serve.port, key, SH_WSH, 'transactions', 'transactions');
      assert.deepEqual(txs.map((t) => `${t.hash} ${t.balance_change}`).sort(), [...view.net].map(([txid, n]) => `${txid} ${formatCoins(n.net)}`).sort(), engine);
    }
  });

  it('refusals name the problem: a cosigner key of another network, k above n, a wrong checksum', async () => {
    const { serve, key } = serves[0]!;
    const refused = async (wallet: string, reason: RegExp) => {
      const reply = await httpJson(serve.port, v3(wallet), { headers: { 'API-KEY': key } });
      assert.equal(reply.status, 404, wallet);
      assert.match(reply.body.data.error_message, reason);
    };
    const keys = shWshWallet.cosigners.map((c) => c.key('<0;1>/*'));
    const xpub = 'xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL';
    await refused(`sh(wsh(multi(2,${keys[0]},${keys[1]},${xpub}/<0;1>/*)))`, /key 3 of 3: a xpub key belongs to Bitcoin, Litecoin, not Bitcoin Regtest/);
    await refused(`sh(wsh(multi(4,${keys.join(',')})))`, /threshold of 4 with only 3 keys/);
    await refused(`${SH_WSH.slice(0, -1)}${SH_WSH.endsWith('q') ? 'p' : 'q'}`, /wrong descriptor checksum/);
  });
});
