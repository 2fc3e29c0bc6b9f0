import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { NetworkId } from '../../core/domain/network.js';
import { fromHex } from '../hash.js';
import { getNetworkParams } from '../networks.js';
import { classifyScript } from './classify.js';

const FIXTURES = new URL('../../../../shared/fixtures/', import.meta.url);

interface Vout { n: number; script_hex: string; type: string }
interface Decoded { vout?: Vout[] }

/** Every output of every tx fixture and every decoded tx in block fixtures, with its file's network. */
function fixtureOutputs(): { where: string; network: NetworkId; vout: Vout }[] {
  const out: { where: string; network: NetworkId; vout: Vout }[] = [];
  for (const dir of ['txs', 'blocks']) {
    for (const file of readdirSync(new URL(`${dir}/`, FIXTURES)).filter((f) => f.endsWith('.json'))) {
      const json = JSON.parse(readFileSync(new URL(`${dir}/${file}`, FIXTURES), 'utf8'));
      const txs: Decoded[] = dir === 'txs' ? [json.expected] : (json.expected.txs ?? []);
      txs.forEach((tx, i) => {
        for (const vout of tx.vout ?? []) out.push({ where: `${file} tx${i} out${vout.n}`, network: json.network, vout });
      });
    }
  }
  return out;
}

const hex = (s: string) => fromHex(s.replace(/\s/g, ''));

describe('classifyScript', () => {
  it('matches the type of every fixture output (txs and blocks)', () => {
    const outputs = fixtureOutputs();
    assert.ok(outputs.length > 300, `only ${outputs.length} outputs found`);
    for (const { where, network, vout } of outputs) {
      const params = getNetworkParams(network);
      assert.equal(classifyScript(fromHex(vout.script_hex), params.features), vout.type, where);
      assert.equal(classifyScript(fromHex(vout.script_hex)), vout.type, `${where} (no features)`);
    }
  });

  const cases: [string, string][] = [
    ['', 'nonstandard'],
    ['76a914' + '11'.repeat(20) + '88ac', 'pubkeyhash'],
    ['a914' + '11'.repeat(20) + '87', 'scripthash'],
    ['21' + '02' + '11'.repeat(32) + 'ac', 'pubkey'],
    ['41' + '04' + '11'.repeat(64) + 'ac', 'pubkey'],
    ['41' + '06' + '11'.repeat(64) + 'ac', 'pubkey'], // hybrid keys have a valid size
    ['21' + '04' + '11'.repeat(32) + 'ac', 'nonstandard'], // 33 bytes with an uncompressed prefix
    ['21' + '00'.repeat(33) + 'ac', 'nonstandard'], // testnet4 genesis output
    ['0014' + '11'.repeat(20), 'witness_v0_keyhash'],
    ['0020' + '11'.repeat(32), 'witness_v0_scripthash'],
    ['0015' + '11'.repeat(21), 'nonstandard'], // v0 with another size
    ['5120' + '11'.repeat(32), 'witness_v1_taproot'],
    ['5121' + '11'.repeat(33), 'witness_unknown'],
    ['51024e73', 'witness_unknown'], // pay-to-anchor ("anchor" since Core 28)
    ['6002' + '1111', 'witness_unknown'], // v16, 2 bytes
    ['6001' + '11', 'nonstandard'], // program too short
    ['5129' + '11'.repeat(41), 'nonstandard'], // program too long
    ['6a', 'nulldata'],
    ['6a00', 'nulldata'],
    ['6a0401020304', 'nulldata'],
    ['6a4c50' + '11'.repeat(80), 'nulldata'],
    ['6a4d0100' + '11', 'nulldata'], // non-minimal push still a push
    ['6a50', 'nulldata'], // OP_RESERVED counts as push-type in IsPushOnly
    ['6a60', 'nulldata'], // OP_16
    ['6a61', 'nonstandard'], // OP_NOP is not a push
    ['6a4c', 'nonstandard'], // truncated push
    ['6a' + '4d' + 'e803' + '11'.repeat(1000), 'nulldata'], // size limit is policy, not type
    ['5121' + '02' + '11'.repeat(32) + '51ae', 'multisig'],
    ['5221' + '02' + '11'.repeat(32) + '21' + '03' + '22'.repeat(32) + '52ae', 'multisig'],
    ['5321' + '02' + '11'.repeat(32) + '21' + '03' + '22'.repeat(32) + '52ae', 'nonstandard'], // m > n
    ['5121' + '02' + '11'.repeat(32) + '52ae', 'nonstandard'], // n does not match the key count
    ['0021' + '02' + '11'.repeat(32) + '51ae', 'nonstandard'], // m = 0
    ['5121' + '1c' + '11'.repeat(32) + '51ae', 'nonstandard'], // bad key prefix (Counterparty data)
    ['5121' + '02' + '11'.repeat(32) + '51ae' + 'ae', 'nonstandard'],
    ['5820' + '11'.repeat(32), 'witness_mweb_hogaddr'],
    ['5920' + '11'.repeat(32), 'witness_mweb_pegin'],
    ['5921' + '11'.repeat(33), 'witness_unknown'],
  ];
  for (const [script, type] of cases) {
    it(`${script.slice(0, 24) || '(empty)'}… is ${type}`, () => assert.equal(classifyScript(hex(script)), type));
  }

  it('multisig counts may be minimal pushes up to 20 keys (Core 26+)', () => {
    const key = '21' + '02' + '11'.repeat(32);
    assert.equal(classifyScript(hex('51' + key.repeat(17) + '0111ae')), 'multisig');
    assert.equal(classifyScript(hex('51' + key.repeat(20) + '0114ae')), 'multisig');
    assert.equal(classifyScript(hex('51' + key.repeat(21) + '0115ae')), 'nonstandard'); // 21 > 20
    assert.equal(classifyScript(hex('51' + key + '0101ae')), 'nonstandard'); // 1 must be OP_1
    assert.equal(classifyScript(hex('51' + key.repeat(17) + '021100ae')), 'nonstandard'); // non-minimal number
  });

  it('reads OP_8/OP_9 + 32 bytes as MWEB only on chains with MWEB', () => {
    const pegin = hex('5920' + '11'.repeat(32));
    const hogaddr = hex('5820' + '11'.repeat(32));
    assert.equal(classifyScript(pegin, getNetworkParams('LTC').features), 'witness_mweb_pegin');
    assert.equal(classifyScript(hogaddr, getNetworkParams('LTCTEST').features), 'witness_mweb_hogaddr');
    assert.equal(classifyScript(pegin, getNetworkParams('BTC').features), 'witness_unknown');
    assert.equal(classifyScript(hogaddr, getNetworkParams('DOGE').features), 'witness_unknown');
  });
});
