/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies and node replies are checked field by field */
/**
 * A 2-of-3 sh(multi) multipath wallet on Litecoin (issue 50) against litecoind 0.21 regtest, indexed on SQLite and
 * PostgreSQL. Litecoin Core 0.21 has legacy wallets only, so the node's side is what it offers for multisig: our
 * addresses equal `createmultisig` of the three keys' children and `deriveaddresses` of each chain; a legacy wallet
 * watches the redeem scripts (`addmultisigaddress`, then `importaddress … p2sh`), and its view (getbalances
 * watchonly, listtransactions/gettransaction nets, listunspent) is what the v3 answers must equal. The spend is
 * signed by two cosigners' keys (`signrawtransactionwithkey` with the redeem script) with change to the change chain.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encodeBase58Check } from '../../src/chains/address/base58.js';
import { getNetworkParams } from '../../src/chains/addressing.js';
import { formatCoins } from '../../src/core/domain/money.js';
import { syncAll } from '../helpers/indexer-harness.js';
import { startLitecoind } from '../helpers/regtest-node.js';
import { callBoth, v3ChainOn, type V3Chain } from './v3-fixture.js';
import { Cosigner, MultisigWallet } from './multisig-fixture.js';
import { sats, withChecksum } from './wallet-fixture.js';

const LTC_REGTEST = getNetworkParams('LTCTEST', 'regtest');
const wallet = new MultisigWallet('ltc', [61, 62, 63].map((s) => new Cosigner(s, 1)), (k) => `sh(multi(2,${k.join(',')}))`, LTC_REGTEST);
const DESCRIPTOR = withChecksum(wallet.descriptor('<0;1>/*'));
/** The addresses the tests pay: receive 0, 1, 2 (mempool) and 4, change 0 (the spend's). */
const WATCHED: readonly (readonly [number, number])[] = [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [1, 0], [1, 1]];

let chain: V3Chain;
let watcher: any;
const txids: Record<string, string> = {};

/** Cosigner `c`'s child public key and regtest WIF at chain/index. */
function child(c: number, chainIndex: number, index: number): { pub: string; wif: string } {
  const node = wallet.cosigners[c]!.account.deriveChild(chainIndex).deriveChild(index);
  return { pub: Buffer.from(node.publicKey!).toString('hex'), wif: encodeBase58Check(Uint8Array.of(0xef, ...node.privateKey!, 0x01)) };
}

const get = (tail = '') => callBoth(chain.apps, `/api/v3/xpub/LTCTEST/${encodeURIComponent(DESCRIPTOR)}${tail}`, chain.key);

before(async () => {
  chain = await v3ChainOn(await startLitecoind({ funded: true }), LTC_REGTEST, async ({ node }) => {
    watcher = await node.createWallet('watch');
    for (const [c, i] of WATCHED) {
      const made = await watcher.call('addmultisigaddress', [2, [0, 1, 2].map((k) => child(k, c, i).pub), '', 'legacy']);
      await watcher.call('importaddress', [made.redeemScript, '', false, true]);
    }
  });
  const { node } = chain;
  txids.r0 = await node.send(wallet.address(0, 0), '1.0');
  txids.r1 = await node.send(wallet.address(0, 1), '0.5');
  txids.r4 = await node.send(wallet.address(0, 4), '0.25');
  await node.mine(1);
  // Receive 0's coin to someone else, change to change 0, signed by cosigners 1 and 2.
  const coin = (await node.rpc.call<any>('getrawtransaction', [txids.r0, true])).vout.find((o: any) => o.scriptPubKey.address === wallet.address(0, 0) || o.scriptPubKey.addresses?.[0] === wallet.address(0, 0));
  const redeem = (await node.rpc.call<any>('createmultisig', [2, [0, 1, 2].map((k) => child(k, 0, 0).pub), 'legacy'])).redeemScript;
  const raw = await node.rpc.call<string>('createrawtransaction', [[{ txid: txids.r0, vout: coin.n }], [{ [await node.newAddress()]: '0.6' }, { [wallet.address(1, 0)]: '0.3999' }]]);
  const signed = await node.rpc.call<any>('signrawtransactionwithkey', [raw, [child(0, 0, 0).wif, child(1, 0, 0).wif],
    [{ txid: txids.r0, vout: coin.n, scriptPubKey: coin.scriptPubKey.hex, redeemScript: redeem, amount: coin.value }]]);
  assert.equal(signed.complete, true, JSON.stringify(signed.errors));
  txids.spend = await node.rpc.call<string>('sendrawtransaction', [signed.hex]);
  await node.mine(1);
  txids.mempool = await node.send(wallet.address(0, 2), '0.05');
  await syncAll(chain.indexed);
});

after(async () => {
  await chain?.stop();
});

/** The watching wallet's per-tx nets (watch-only included), balances and unspent outputs. */
async function nodeView(): Promise<{ net: Map<string, { net: bigint; height: number | null }>; balances: any; unspent: any[] }> {
  const list = await watcher.call('listtransactions', ['*', 1000, 0, true], { exactDecimals: true });
  const net = new Map<string, { net: bigint; height: number | null }>();
  for (const txid of new Set<string>(list.map((t: any) => t.txid))) {
    const tx = await watcher.call('gettransaction', [txid, true], { exactDecimals: true });
    net.set(txid, { net: sats(tx.amount) + (tx.fee === undefined ? 0n : sats(tx.fee)), height: tx.blockheight ?? null });
  }
  return { net, balances: (await watcher.call('getbalances', [], { exactDecimals: true })).watchonly, unspent: await watcher.call('listunspent', [0], { exactDecimals: true }) };
}

describe('a 2-of-3 sh(multi) wallet on Litecoin against litecoind 0.21', () => {
  it('our addresses are createmultisig\'s of the keys\' children and deriveaddresses\' of each chain', async () => {
    for (const [c, i] of WATCHED) {
      const made = await chain.node.rpc.call<any>('createmultisig', [2, [0, 1, 2].map((k) => child(k, c, i).pub), 'legacy']);
      assert.equal(made.address, wallet.address(c, i), `${c}/${i}`);
    }
    for (const c of [0, 1]) {
      const desc = withChecksum(wallet.descriptor(`${c}/*`));
      assert.deepEqual(await chain.node.rpc.call<string[]>('deriveaddresses', [desc, [0, 9]]), Array.from({ length: 10 }, (_, i) => wallet.address(c, i)));
    }
  });

  it('the summary, transactions and unspent outputs equal the watching wallet', async () => {
    const view = await nodeView();
    const d = (await get()).body.data;
    assert.equal(d.confirmed_balance, formatCoins(sats(view.balances.trusted)));
    assert.equal(d.unconfirmed_balance, formatCoins(sats(view.balances.untrusted_pending)));
    assert.equal(d.txs_total, view.net.size);
    const confirmed = [...view.net.values()].filter((n) => n.height !== null).map((n) => n.net);
    assert.equal(d.confirmed_received_external, formatCoins(confirmed.filter((n) => n > 0n).reduce((s, n) => s + n, 0n)));
    assert.equal(d.confirmed_sent_external, formatCoins(-confirmed.filter((n) => n < 0n).reduce((s, n) => s + n, 0n)));
    assert.equal(d.confirmed_sent_external, '0.60010000', 'what left plus the fee; the change stays');
    assert.deepEqual([d.script_form, d.threshold, d.used_addresses], ['sh(multi)', 2, 5]);
    assert.deepEqual(d.next_receive_address, { address: wallet.address(0, 5), path: '0/5' });
    assert.deepEqual(d.next_change_address, { address: wallet.address(1, 1), path: '1/1' });
    assert.match(d.next_receive_address.address, /^Q/, 'a Litecoin regtest P2SH address');
    const txs = (await get('/transactions/1')).body.data.transactions;
    assert.deepEqual(txs.map((t: any) => `${t.hash} ${t.balance_change} ${t.block}`).sort(), [...view.net].map(([txid, n]) => `${txid} ${formatCoins(n.net)} ${n.height}`).sort());
    const outputs = (await get('/unspent_outputs/1')).body.data.outputs;
    const pathOf = new Map(WATCHED.map(([c, i]) => [wallet.address(c, i), `${c}/${i}`]));
    assert.deepEqual(
      outputs.map((o: any) => `${o.hash}:${o.index} ${o.value} ${o.address} ${o.path}`).sort(),
      view.unspent.map((u) => `${u.txid}:${u.vout} ${formatCoins(sats(u.amount))} ${u.address} ${pathOf.get(u.address)}`).sort(),
    );
    assert.ok(outputs.some((o: any) => o.path === '1/0'), 'the change on the change chain');
  });
});
