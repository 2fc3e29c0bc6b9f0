import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NetworkId } from '../../core/index.js';
import { addressToScript, getNetworkParams, type NetworkParams } from '../../chains/addressing.js';
import { encodeBase58Address } from '../../chains/address/base58-address.js';
import { PusherCode } from '../protocol/error-codes.js';
import { blockchainChannel, scriptKey, tickerChannel } from '../../services/events/catalogue/event-channels.js';
import { resolveChannel } from './channel-names.js';

const LTC = getNetworkParams('LTC');
const networks = new Map<NetworkId, NetworkParams>([['LTC', LTC], ['LTCTEST', getNetworkParams('LTCTEST', 'regtest')]]);
const P2SH_M = 'MCZjFcwYJwwYqXAbd3bbnxaCVGs81cp43Z';

describe('channel names', () => {
  it('builds the lower-case names of docs/realtime.md', () => {
    assert.equal(blockchainChannel('DOGETEST'), 'blockchain_update_dogetest');
    assert.equal(tickerChannel('BTC', 'USD'), 'ticker_btc_usd');
  });

  it('maps both spellings of a Litecoin P2SH address to one script key', () => {
    const script = addressToScript(LTC, P2SH_M);
    const legacy = encodeBase58Address(5, script.subarray(2, 22));
    assert.match(legacy, /^3/);
    const m = resolveChannel(`address_ltc_${P2SH_M}`, networks);
    const three = resolveChannel(`address_ltc_${legacy}`, networks);
    assert.ok(m.ok && three.ok && m.spec.kind === 'address' && three.spec.kind === 'address');
    assert.equal(m.spec.scriptKey, three.spec.scriptKey);
    assert.equal(m.spec.scriptKey, scriptKey('LTC', script));
    assert.equal(three.spec.address, legacy, 'the spelling the user typed is kept');
  });

  it('accepts an upper-case bech32 address and maps it like the lower-case one', () => {
    const lower = 'rltc1qqurswpc8qurswpc8qurswpc8qurswpc8ntpxlg';
    const a = resolveChannel(`address_ltctest_${lower}`, networks);
    const b = resolveChannel(`address_ltctest_${lower.toUpperCase()}`, networks);
    if (!a.ok) assert.fail(a.message);
    assert.ok(b.ok && a.spec.kind === 'address' && b.spec.kind === 'address' && a.spec.scriptKey === b.spec.scriptKey);
  });

  it('refuses what does not exist here, with the protocol codes', () => {
    const cases: [string, PusherCode][] = [
      ['private-foo', PusherCode.Unauthorized],
      ['presence-room', PusherCode.Unauthorized],
      ['blockchain_update_btc', PusherCode.InvalidMessage], // network not served by this process
      ['blockchain_update_LTC', PusherCode.InvalidMessage], // network slugs are lower case
      ['address_ltc_notanaddress', PusherCode.InvalidMessage],
      ['address_ltc_' + 'rltc1qqurswpc8qurswpc8qurswpc8qurswpc8ntpxlg', PusherCode.InvalidMessage], // regtest address on main
      ['ticker_eth_usd', PusherCode.InvalidMessage],
      ['ticker_btc_USD', PusherCode.InvalidMessage],
      ['my-channel', PusherCode.InvalidMessage],
      ['bad name!', PusherCode.InvalidMessage],
      ['x'.repeat(165), PusherCode.InvalidMessage],
      ['', PusherCode.InvalidMessage],
      ['wallet_btc_qqqqqqqq', PusherCode.InvalidMessage], // network not served
      ['wallet_ltctest_qqqqqqq', PusherCode.InvalidMessage], // 7 characters
      ['wallet_ltctest_QQQQQQQQ', PusherCode.InvalidMessage], // checksums are lower case
      ['wallet_ltctest_qqqqqqqb', PusherCode.InvalidMessage], // b is not in the checksum alphabet
      ['wallet_ltctest_qqqqqqqq_x', PusherCode.InvalidMessage],
    ];
    for (const [name, code] of cases) {
      const result = resolveChannel(name, networks);
      assert.equal(result.ok, false, name);
      if (!result.ok) assert.equal(result.code, code, name);
    }
    const wallet = resolveChannel('wallet_ltctest_k3n7wq2x', networks);
    assert.ok(wallet.ok && wallet.spec.kind === 'wallet' && wallet.spec.wallet === 'k3n7wq2x', 'a wallet channel: network and checksum');
    const ticker = resolveChannel('ticker_doge_usd', networks);
    assert.ok(ticker.ok, 'tickers do not depend on served networks');
  });
});
