/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies and node replies are checked field by field */
/**
 * v3 wallets against bitcoind regtest on SQLite and PostgreSQL (issue 31's done-when): a BIP84 account as a multipath
 * descriptor, a single-chain descriptor with checksum and a plain vpub; payments to receive indexes with gaps (one past
 * the default gap, found with a larger `gap`), a spend with change to the change chain, an internal transfer, one
 * payment in the mempool. Balance, history (net amounts), unspent outputs (with paths) and used addresses must equal
 * the view of a node descriptor wallet holding the same keys.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HDKey } from '@scure/bip32';
import { formatCoins, type Sats } from '../../src/core/domain/money.js';
import { nodePath, sats, startWalletChain, withChecksum, type Account, type WalletChain } from './wallet-fixture.js';

const V3 = '/api/v3/xpub/BTCTEST';
let chain: WalletChain;
let bip84: Account;
/** The transfers, for the history checks. */
const txids: Record<string, string> = {};

const enc = encodeURIComponent;
const url = (wallet: string, tail = '', gap?: number) => `${V3}/${enc(wallet)}${tail}${gap === undefined ? '' : `?gap=${gap}`}`;

/** Every page of a paged wallet route, until an empty one. */
async function allPages(wallet: string, route: string, field: string, gap?: number): Promise<any[]> {
  const items: any[] = [];
  for (let page = 1; ; page++) {
    const reply = await chain.get(url(wallet, `/${route}/${page}`, gap));
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    if (reply.body.data[field].length === 0) return items;
    items.push(...reply.body.data[field]);
  }
}

before(async () => {
  chain = await startWalletChain();
  bip84 = chain.accounts.wpkh;
  const { node } = chain;
  const pay = (index: number, amount: string) => node.send(bip84.address(0, index), amount);
  // Receive indexes 0, 3, 7 and 30: after 7 come 22 unused ones, so 30 lies past the default gap of 20.
  txids.r0 = await pay(0, '1.0');
  txids.r3 = await pay(3, '0.5');
  txids.r7 = await pay(7, '0.25');
  txids.r30 = await pay(30, '0.125');
  await node.mine(1);
  // A spend to someone else of receive 0's coin: the node wallet sends its change to the change chain (index 0).
  await spendOnlyFrom(bip84, [bip84.address(0, 0)]);
  txids.spend = await bip84.wallet.call<string>('sendtoaddress', [await node.newAddress(), '0.6']);
  await node.mine(1);
  // An internal transfer of that change to receive index 8 (change to change index 1): the wallet's net is minus the fee.
  await spendOnlyFrom(bip84, [bip84.address(1, 0)]);
  txids.internal = await bip84.wallet.call<string>('sendtoaddress', [bip84.address(0, 8), '0.2']);
  await bip84.wallet.call('lockunspent', [true]);
  await node.mine(1);
  txids.mempool = await pay(4, '0.05');
  await chain.sync();
});

/** Locks every coin of the node wallet but those paying `addresses`: its coin selection is random otherwise. */
async function spendOnlyFrom(account: Account, addresses: readonly string[]): Promise<void> {
  await account.wallet.call('lockunspent', [true]);
  const others = (await account.wallet.call<any[]>('listunspent', [0])).filter((u) => !addresses.includes(u.address));
  await account.wallet.call('lockunspent', [false, others.map((u) => ({ txid: u.txid, vout: u.vout }))]);
}

after(async () => {
  await chain?.stop();
});

/** The node wallet's net per txid (amount + fee), its block height, and its unspent outputs with paths. */
async function nodeView(account: Account): Promise<{ net: Map<string, { net: Sats; height: number | null }>; unspent: any[]; balances: any }> {
  const list = await account.wallet.call<any[]>('listtransactions', ['*', 1000, 0, true], { exactDecimals: true });
  const net = new Map<string, { net: Sats; height: number | null }>();
  for (const txid of new Set(list.map((t) => t.txid as string))) {
    const tx = await account.wallet.call<any>('gettransaction', [txid, true], { exactDecimals: true });
    net.set(txid, { net: sats(tx.amount) + (tx.fee === undefined ? 0n : sats(tx.fee)), height: tx.blockheight ?? null });
  }
  const unspent = await account.wallet.call<any[]>('listunspent', [0], { exactDecimals: true });
  const balances = (await account.wallet.call<any>('getbalances', [], { exactDecimals: true })).mine;
  return { net, unspent, balances };
}

describe('v3 xpub: a BIP84 account against the node wallet holding its keys', () => {
  it('our derivation and checksums are the node\'s (deriveaddresses, getdescriptorinfo)', async () => {
    for (const c of [0, 1]) {
      const desc = withChecksum(bip84.descriptor(`${c}/*`));
      const info = await chain.node.rpc.call<any>('getdescriptorinfo', [desc]);
      assert.equal(`${bip84.descriptor(`${c}/*`)}#${info.checksum}`, desc);
      const nodeAddresses = await chain.node.rpc.call<string[]>('deriveaddresses', [desc, [0, 40]]);
      assert.deepEqual(nodeAddresses, Array.from({ length: 41 }, (_, i) => bip84.address(c, i)));
    }
  });

  it('with gap 40 the multipath descriptor equals the node wallet: balances, counts, next addresses', async () => {
    const view = await nodeView(bip84);
    const reply = await chain.get(url(withChecksum(bip84.descriptor('<0;1>/*')), '', 40));
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const d = reply.body.data;
    assert.equal(d.confirmed_balance, formatCoins(sats(view.balances.trusted)));
    assert.equal(d.unconfirmed_balance, formatCoins(sats(view.balances.untrusted_pending)));
    assert.equal(d.unconfirmed_balance, '0.05000000');
    assert.equal(d.txs_total, view.net.size);
    assert.equal(d.gap, 40);
    assert.equal(d.descriptor, withChecksum(bip84.descriptor('<0;1>/*')), 'normalised: h for hardened, checksum');
    // Used: receive 0, 3, 4 (mempool), 7, 8, 30; change 0 and 1.
    assert.equal(d.used_addresses, 8);
    assert.deepEqual(d.next_receive_address, { address: bip84.address(0, 31), path: '0/31' });
    assert.deepEqual(d.next_change_address, { address: bip84.address(1, 2), path: '1/2' });
    // Received and sent add up per address: change and the internal transfer count on both sides.
    assert.equal(BigInt(d.confirmed_received.replace('.', '')) - BigInt(d.confirmed_sent.replace('.', '')), sats(view.balances.trusted));
    // From and to outside: the node wallet's confirmed per-tx nets, summed by sign (the internal transfer nets to its fee).
    const confirmed = [...view.net.values()].filter((n) => n.height !== null).map((n) => n.net);
    assert.equal(d.confirmed_received_external, formatCoins(confirmed.filter((n) => n > 0n).reduce((s, n) => s + n, 0n)));
    assert.equal(d.confirmed_sent_external, formatCoins(-confirmed.filter((n) => n < 0n).reduce((s, n) => s + n, 0n)));
    assert.equal(d.confirmed_received_external, '1.87500000', 'the four receipts from outside; change and the transfer are no receipts');
    assert.deepEqual([d.script_form, d.threshold, d.keys.length], ['wpkh', null, 1]);
  });

  it('the default gap stops before receive index 30; a larger gap finds it', async () => {
    const wallet = withChecksum(bip84.descriptor('<0;1>/*'));
    const narrow = (await chain.get(url(wallet))).body.data;
    const wide = (await chain.get(url(wallet, '', 25))).body.data;
    assert.equal(narrow.gap, 20);
    assert.equal(narrow.used_addresses, 7);
    assert.deepEqual(narrow.next_receive_address, { address: bip84.address(0, 9), path: '0/9' });
    assert.equal(sats(narrow.confirmed_balance) + sats('0.125'), sats(wide.confirmed_balance));
    assert.equal(narrow.txs_total + 1, wide.txs_total);
  });

  it('transactions newest first, mempool first, each with the node wallet\'s net and block', async () => {
    const view = await nodeView(bip84);
    const wallet = withChecksum(bip84.descriptor('<0;1>/*'));
    const txs = await allPages(wallet, 'transactions', 'transactions', 40);
    assert.equal(txs.length, view.net.size);
    assert.equal(txs[0].hash, txids.mempool);
    assert.equal(txs[0].block, null);
    for (const t of txs) {
      const node = view.net.get(t.hash)!;
      assert.ok(node, `${t.hash} is the node wallet's`);
      assert.equal(t.balance_change, formatCoins(node.net), t.hash);
      assert.equal(t.block, node.height, t.hash);
    }
    const heights = txs.map((t) => t.block ?? Infinity);
    assert.deepEqual(heights, [...heights].sort((a, b) => b - a), 'newest first');
    const internal = txs.find((t) => t.hash === txids.internal);
    const fee = (await bip84.wallet.call<any>('gettransaction', [txids.internal], { exactDecimals: true })).fee;
    assert.equal(internal.balance_change, formatCoins(sats(fee)), 'an internal transfer nets to minus its fee');
    assert.equal((await chain.get(url(wallet, '/transactions/99', 40))).body.data.transactions.length, 0, 'a page past the end is empty');
  });

  it('unspent outputs with their paths equal the node wallet\'s listunspent', async () => {
    const view = await nodeView(bip84);
    const outputs = await allPages(withChecksum(bip84.descriptor('<0;1>/*')), 'unspent_outputs', 'outputs', 40);
    const ours = outputs.map((o) => `${o.hash}:${o.index} ${o.value} ${o.address} ${o.path} ${o.block === null ? 'mempool' : 'confirmed'}`).sort();
    const theirs = view.unspent.map((u) => `${u.txid}:${u.vout} ${formatCoins(sats(u.amount))} ${u.address} ${nodePath(u.desc)} ${u.confirmations === 0 ? 'mempool' : 'confirmed'}`).sort();
    assert.deepEqual(ours, theirs);
    assert.ok(outputs.some((o) => o.path.startsWith('1/')), 'change outputs on the change chain');
    const blocks = outputs.map((o) => o.block ?? Infinity);
    assert.deepEqual(blocks, [...blocks].sort((a, b) => a - b), 'oldest first, mempool last');
  });

  it('used addresses with paths and balances equal the node wallet\'s', async () => {
    const view = await nodeView(bip84);
    const reply = await chain.get(url(withChecksum(bip84.descriptor('<0;1>/*')), '/addresses', 40));
    const used = reply.body.data.addresses;
    assert.deepEqual(used.map((a: any) => a.path), ['0/0', '0/3', '0/4', '0/7', '0/8', '0/30', '1/0', '1/1']);
    for (const a of used) {
      const [c, i] = a.path.split('/').map(Number);
      assert.equal(a.address, bip84.address(c, i));
      const confirmed = view.unspent.filter((u) => u.address === a.address && u.confirmations > 0).reduce((s, u) => s + sats(u.amount), 0n);
      assert.equal(a.confirmed_balance, formatCoins(confirmed), a.path);
      const received = sats(await bip84.wallet.call('getreceivedbyaddress', [a.address, 0], { exactDecimals: true }));
      assert.ok(received > 0n, `${a.path} received something`);
    }
    assert.equal(used.find((a: any) => a.path === '0/4').unconfirmed_balance, '0.05000000');
    assert.equal(used.find((a: any) => a.path === '0/0').txs_total, 2, 'paid, then spent');
  });

  it('a single-chain descriptor with checksum reads the receive chain only; a plain vpub is the multipath wallet', async () => {
    const view = await nodeView(bip84);
    const receive = withChecksum(bip84.descriptor('0/*'));
    const single = (await chain.get(url(receive, '', 40))).body.data;
    const onReceive = view.unspent.filter((u) => nodePath(u.desc).startsWith('0/') && u.confirmations > 0).reduce((s, u) => s + sats(u.amount), 0n);
    assert.equal(single.confirmed_balance, formatCoins(onReceive));
    assert.equal(single.next_change_address, null);
    assert.equal(single.used_addresses, 6);
    assert.equal(single.descriptor, receive);
    const vpub = HDKey.fromExtendedKey(bip84.tpub, { public: 0x043587cf, private: 0x04358394 });
    const asVpub = new HDKey({ versions: { public: 0x045f1cf6, private: 0x045f18bc }, depth: vpub.depth, index: vpub.index,
      parentFingerprint: vpub.parentFingerprint, chainCode: vpub.chainCode!, publicKey: vpub.publicKey! }).publicExtendedKey;
    assert.match(asVpub, /^vpub/);
    const plain = (await chain.get(url(asVpub, '', 40))).body.data;
    const multi = (await chain.get(url(withChecksum(bip84.descriptor('<0;1>/*')), '', 40))).body.data;
    assert.deepEqual({ ...plain, descriptor: null, keys: null }, { ...multi, descriptor: null, keys: null }, 'the same figures (the plain key has no origin)');
    assert.equal(plain.descriptor, withChecksum(`wpkh(${bip84.tpub}/<0;1>/*)`), 'a plain key normalises to wpkh(tpub/<0;1>/*)');
  });
});
