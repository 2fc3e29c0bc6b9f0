import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { InvalidArgumentError } from '../core/domain/errors.js';
import { NETWORK_IDS, type NetworkId } from '../core/domain/network.js';
import { ALL_NETWORK_PARAMS, BTC_TESTNET4_GENESIS_HASH, getNetworkParams, knownGenesisHashes } from './networks.js';

const FIXTURES = new URL('../../../shared/fixtures/', import.meta.url);
const readBlock = (name: string): { network: NetworkId; height: number; hash: string } =>
  JSON.parse(readFileSync(new URL(`blocks/${name}`, FIXTURES), 'utf8'));

describe('network params', () => {
  it('has one params object per (id, chain), a main/test for every id and regtest for every test id', () => {
    const keys = ALL_NETWORK_PARAMS.map((p) => `${p.id}/${p.chain}`);
    assert.equal(new Set(keys).size, keys.length);
    for (const id of NETWORK_IDS) {
      const params = getNetworkParams(id);
      assert.equal(params.id, id);
      assert.equal(params.chain, id.endsWith('TEST') ? 'test' : 'main');
      if (id.endsWith('TEST')) assert.equal(getNetworkParams(id, 'regtest').chain, 'regtest');
    }
  });

  it('rejects impossible id/chain combinations', () => {
    assert.throws(() => getNetworkParams('BTC', 'test'), InvalidArgumentError);
    assert.throws(() => getNetworkParams('LTC', 'regtest'), InvalidArgumentError);
    assert.throws(() => getNetworkParams('DOGETEST', 'main'), InvalidArgumentError);
  });

  for (const file of [
    'BTC-0-genesis.json',
    'BTCTEST-0-genesis.json',
    'LTC-0-genesis.json',
    'LTCTEST-0-genesis.json',
    'DOGE-0-genesis.json',
    'DOGETEST-0-genesis.json',
  ]) {
    it(`genesis hash matches ${file}`, () => {
      const block = readBlock(file);
      assert.equal(block.height, 0);
      assert.equal(getNetworkParams(block.network).genesisHash, block.hash);
    });
  }

  it('accepts the testnet4 genesis for BTCTEST only', () => {
    const block = readBlock('BTCTEST-testnet4-0-genesis.json');
    assert.equal(block.hash, BTC_TESTNET4_GENESIS_HASH);
    assert.ok(knownGenesisHashes(getNetworkParams('BTCTEST')).includes(block.hash));
    assert.deepEqual(knownGenesisHashes(getNetworkParams('BTC')), [getNetworkParams('BTC').genesisHash]);
  });

  it('carries the per-coin constants', () => {
    const [btc, ltc, doge] = [getNetworkParams('BTC'), getNetworkParams('LTC'), getNetworkParams('DOGE')];
    assert.deepEqual([btc.targetSpacing, ltc.targetSpacing, doge.targetSpacing], [600, 150, 60]);
    assert.deepEqual([btc.coinbaseMaturity, ltc.coinbaseMaturity, doge.coinbaseMaturity], [100, 100, 240]);
    assert.deepEqual(ltc.scriptHashVersions, [50, 5]);
    assert.deepEqual(getNetworkParams('LTCTEST').scriptHashVersions, [58, 196]);
    assert.deepEqual([doge.pubkeyHashVersion, doge.scriptHashVersions], [30, [22]]);
    assert.equal(doge.bech32Hrp, null);
    assert.deepEqual(doge.features, { segwit: false, mweb: false, auxpow: true });
    assert.deepEqual(ltc.features, { segwit: true, mweb: true, auxpow: false });
    assert.equal(getNetworkParams('BTCTEST', 'regtest').bech32Hrp, 'bcrt');
    assert.equal(getNetworkParams('LTCTEST', 'regtest').bech32Hrp, 'rltc');
    assert.equal(getNetworkParams('LTCTEST', 'regtest').mwebHrp, 'tmweb');
    for (const p of ALL_NETWORK_PARAMS) assert.equal(p.maxBlockWeight, 4_000_000);
  });
});
