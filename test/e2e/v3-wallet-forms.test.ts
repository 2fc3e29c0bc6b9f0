/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies and node replies are checked field by field */
/**
 * v3 wallets, every script form against bitcoind regtest on both engines: tr (BIP86, taproot key path, spent and
 * received), sh(wpkh) (BIP49) and pkh (BIP44) accounts equal their node descriptor wallets; and every way a wallet is
 * refused answers 404 with the reason (malformed keys, wrong checksums, other networks' keys, private keys, bad gaps).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { formatCoins } from '../../src/core/domain/money.js';
import { call } from './v3-fixture.js';
import { nodePath, sats, startWalletChain, withChecksum, type Account, type AccountKind, type WalletChain } from './wallet-fixture.js';

const V3 = '/api/v3/xpub/BTCTEST';
let chain: WalletChain;
const url = (wallet: string, tail = '') => `${V3}/${encodeURIComponent(wallet)}${tail}`;

before(async () => {
  chain = await startWalletChain();
  const { node, accounts } = chain;
  const pay = (account: Account, chainIndex: number, index: number, amount: string) => node.send(account.address(chainIndex, index), amount);
  await pay(accounts.tr, 0, 0, '1.5');
  await pay(accounts.tr, 0, 2, '0.7');
  await pay(accounts['sh-wpkh'], 0, 1, '0.3');
  await pay(accounts.pkh, 0, 0, '0.4');
  await node.mine(1);
  // A taproot key-path spend with change to the tr account's change chain.
  await accounts.tr.wallet.call('sendtoaddress', [await node.newAddress(), '1.0']);
  await node.mine(1);
  await pay(accounts.pkh, 0, 1, '0.02');
  await chain.sync();
});

after(async () => {
  await chain?.stop();
});

describe('v3 xpub: tr, sh(wpkh) and pkh accounts against their node wallets', () => {
  for (const kind of ['tr', 'sh-wpkh', 'pkh'] as AccountKind[]) {
    it(`${kind}: balances, transaction count and unspent outputs with paths`, async () => {
      const account = chain.accounts[kind];
      const wallet = withChecksum(account.descriptor('<0;1>/*'));
      const summary = await chain.get(url(wallet));
      assert.equal(summary.status, 200, JSON.stringify(summary.body));
      const balances = (await account.wallet.call<any>('getbalances', [], { exactDecimals: true })).mine;
      assert.equal(summary.body.data.confirmed_balance, formatCoins(sats(balances.trusted)));
      assert.equal(summary.body.data.unconfirmed_balance, formatCoins(sats(balances.untrusted_pending)));
      const list = await account.wallet.call<any[]>('listtransactions', ['*', 100, 0, true]);
      assert.equal(summary.body.data.txs_total, new Set(list.map((t) => t.txid)).size);
      const outputs = (await chain.get(url(wallet, '/unspent_outputs/1'))).body.data.outputs;
      const unspent = await account.wallet.call<any[]>('listunspent', [0], { exactDecimals: true });
      assert.deepEqual(
        outputs.map((o: any) => `${o.hash}:${o.index} ${o.value} ${o.address} ${o.path}`).sort(),
        unspent.map((u) => `${u.txid}:${u.vout} ${formatCoins(sats(u.amount))} ${u.address} ${nodePath(u.desc)}`).sort(),
      );
      assert.ok(outputs.length > 0);
    });
  }

  it('tr: the taproot spend nets to what left the wallet plus the fee', async () => {
    const account = chain.accounts.tr;
    const txs = (await chain.get(url(withChecksum(account.descriptor('<0;1>/*')), '/transactions/1'))).body.data.transactions;
    const spend = txs.find((t: any) => t.balance_change.startsWith('-'));
    const tx = await account.wallet.call<any>('gettransaction', [spend.hash], { exactDecimals: true });
    assert.equal(spend.balance_change, formatCoins(sats(tx.amount) + sats(tx.fee)));
    assert.equal((await chain.get(url(withChecksum(account.descriptor('<0;1>/*')), '/addresses'))).body.data.addresses.map((a: any) => a.path).join(' '), '0/0 0/2 1/0');
  });
});

describe('v3 xpub: refusals are 404s that say why', () => {
  const tpub = () => chain.accounts.wpkh.tpub;
  const refused = async (path: string, reason: RegExp): Promise<void> => {
    const reply = await chain.get(path);
    assert.equal(reply.status, 404, `${path}: ${JSON.stringify(reply.body)}`);
    assert.equal(reply.body.status, 'fail');
    assert.match(reply.body.data.error_message, reason, path);
  };

  it('malformed keys, wrong checksums, other networks\' keys, private keys, unsupported forms', async () => {
    const good = chain.accounts.wpkh.descriptor('<0;1>/*');
    await refused(url('xpub-not-a-key'), /not a valid extended key/);
    await refused(url(`${tpub().slice(0, -1)}x`), /not a valid extended key/);
    await refused(url(`${good}#aaaaaaaa`), /wrong descriptor checksum: 'aaaaaaaa' given, the descriptor's is '[a-z0-9]{8}'/);
    await refused(url(`${good}#abc`), /checksum is 8 characters/);
    const zpub = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
    await refused(url(zpub), /a zpub key belongs to Bitcoin, Litecoin, not Bitcoin Regtest/);
    await refused(url(`wpkh(${zpub}/0/*)`), /belongs to Bitcoin, Litecoin, not Bitcoin Regtest/);
    await refused(url('tprv8ZgxMBicQKsPeDgjzdC36fs6bMjGApWDNLR9erAXMs5skhMv36j9MV5ecvfavji5khqjWaWSFhN3YcCUUdiKH6isR4Pwy3U5y5egddBr16m'), /extended private key/);
    await refused(url(`wpkh(${tpub()}/0h/*)`), /hardened derivation/);
    await refused(url(`wsh(pkh(${tpub()}/*))`), /wsh\(\) takes multi\(\) or sortedmulti\(\) here, not pkh\(\)/);
    await refused(url(`wsh(multi(3,${tpub()}/*,${tpub()}/1/*))`), /threshold of 3 with only 2 keys/);
    await refused(url(`rawtr(${tpub()}/*)`), /unsupported descriptor rawtr\(\)/);
    await refused(`/api/v3/xpub/DOGE/${encodeURIComponent(tpub())}`, /DOGE|network/i);
  });

  it('a gap outside 1..1000 is refused; pages are checked as elsewhere in v3', async () => {
    for (const gap of ['0', '1001', 'abc', '-1', '2.5']) await refused(`${url(tpub())}?gap=${gap}`, /gap must be an integer from 1 to 1000/);
    assert.equal((await chain.get(`${url(tpub())}?gap=1000`)).status, 200);
    await refused(url(tpub(), '/transactions/0'), /page must be an integer/);
  });

  it('the API key is required as on every v3 route; an unencoded descriptor is not one segment', async () => {
    const app = chain.apps[0]!;
    assert.equal((await call(app, url(tpub()), null)).status, 401);
    const unencoded = await call(app, `${V3}/wpkh(${tpub()}/0/*)`, chain.key);
    assert.equal(unencoded.status, 404);
  });
});
