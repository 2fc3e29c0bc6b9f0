import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressToScript, getNetworkParams, scriptToAddress } from '../../chains/addressing.js';
import { describeScript } from './script-description.js';

test('descriptions are per network and the same whether cached or not', () => {
  const ltc = getNetworkParams('LTC');
  const btc = getNetworkParams('BTC');
  const script = addressToScript(btc, '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2');
  const first = describeScript(btc, script);
  assert.deepEqual(first, { type: 'pubkeyhash', address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2' });
  assert.equal(describeScript(btc, Uint8Array.from(script)), first, 'a copy of the script hits the cache');
  const onLitecoin = describeScript(ltc, script);
  assert.deepEqual(onLitecoin, { type: 'pubkeyhash', address: scriptToAddress(ltc, script) }, 'not shared across networks');
  assert.match(onLitecoin.address!, /^L/);
  assert.deepEqual(describeScript(btc, Uint8Array.from([0x6a, 0x01, 0x02])), { type: 'nulldata', address: null });
});
