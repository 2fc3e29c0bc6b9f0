import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromHex, toHex } from '../hash.js';
import { decodeSegwitAddress, encodeSegwitAddress, witnessScript } from './segwit-address.js';

const ok = (hrp: string, address: string) => {
  const result = decodeSegwitAddress(hrp, address);
  if ('error' in result) assert.fail(`${address}: ${result.error}`);
  return result;
};
const reason = (hrp: string, address: string) => {
  const result = decodeSegwitAddress(hrp, address);
  assert.ok('error' in result, `${address} should be rejected`);
  return result.error;
};

describe('segwit addresses (BIP173/BIP350)', () => {
  it('decodes BIP350 valid vectors and re-encodes them in lower case', () => {
    const vectors: [string, string, string][] = [
      ['bc', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', '0014751e76e8199196d454941c45d1b3a323f1433bd6'],
      ['tb', 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', '00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262'],
      ['bc', 'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y', '5128751e76e8199196d454941c45d1b3a323f1433bd6751e76e8199196d454941c45d1b3a323f1433bd6'],
      ['bc', 'BC1SW50QGDZ25J', '6002751e'],
      ['bc', 'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', '5210751e76e8199196d454941c45d1b3a323'],
      ['tb', 'tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c', '5120000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433'],
      ['bc', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', '512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798'],
    ];
    for (const [hrp, address, script] of vectors) {
      const { version, program } = ok(hrp, address);
      assert.equal(toHex(witnessScript(version, program)), script, address);
      assert.equal(encodeSegwitAddress(hrp, version, program), address.toLowerCase(), address);
    }
  });

  it('rejects BIP350 invalid vectors with a reason', () => {
    assert.match(reason('bc', 'tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut'), /prefix tc/);
    assert.match(reason('bc', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd'), /bech32m|checksum/);
    assert.match(reason('tb', 'tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf'), /bech32m|checksum/);
    assert.match(reason('bc', 'BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL'), /bech32m|checksum/);
    assert.match(reason('bc', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh'), /bech32, not bech32m/);
    assert.match(reason('tb', 'tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47'), /bech32, not bech32m/);
    assert.match(reason('bc', 'bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4'), /invalid/);
    assert.match(reason('bc', 'BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R'), /version/);
    assert.match(reason('bc', 'bc1pw5dgrnzv'), /2\.\.40/);
    assert.match(reason('bc', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav'), /2\.\.40|longer/);
    assert.match(reason('bc', 'BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P'), /20 or 32/);
    assert.match(reason('tb', 'tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq'), /mixed-case/);
    assert.match(reason('bc', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf'), /padding/);
    assert.match(reason('tb', 'tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j'), /padding/);
    assert.match(reason('bc', 'bc1gmk9yu'), /empty|invalid/);
  });

  it('enforces the 90-character limit', () => {
    const longest = encodeSegwitAddress('bc', 16, new Uint8Array(40));
    assert.equal(longest.length, 74);
    assert.match(reason('bc', 'bc1' + 'q'.repeat(88)), /longer than 90/);
  });

  it('refuses to encode impossible programs', () => {
    assert.throws(() => encodeSegwitAddress('bc', 0, new Uint8Array(21)), RangeError);
    assert.throws(() => encodeSegwitAddress('bc', 17, new Uint8Array(32)), RangeError);
    assert.throws(() => witnessScript(1, new Uint8Array(1)), RangeError);
    assert.equal(toHex(witnessScript(16, fromHex('0102'))), '60020102');
  });
});
