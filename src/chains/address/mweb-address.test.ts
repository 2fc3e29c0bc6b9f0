import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { bech32, bech32m } from '@scure/base';
import { fromHex, toHex } from '../hash.js';
import { decodeMwebAddress, encodeMwebAddress } from './mweb-address.js';

const FIXTURES = new URL('../../../test/fixtures/', import.meta.url);

interface Stealth { address: string; hrp: string; scan_pubkey: string; spend_pubkey: string; length: number }
const stealth = (network: string): Stealth[] =>
  JSON.parse(readFileSync(new URL(`addresses/${network}.json`, FIXTURES), 'utf8')).mweb_stealth_addresses;

describe('MWEB stealth addresses', () => {
  const all = [...stealth('LTC'), ...stealth('LTCTEST')];

  it('decode to version 0 + scan pubkey || spend pubkey and re-encode identically', () => {
    assert.equal(all.length, 4);
    for (const v of all) {
      assert.equal(v.address.length, v.length);
      const decoded = decodeMwebAddress(v.hrp, v.address);
      if ('error' in decoded) assert.fail(`${v.address}: ${decoded.error}`);
      assert.equal(toHex(decoded.scanPubkey), v.scan_pubkey);
      assert.equal(toHex(decoded.spendPubkey), v.spend_pubkey);
      assert.equal(encodeMwebAddress(v.hrp, decoded), v.address);
    }
  });

  it('rejects the wrong hrp, bech32m, a bad checksum, mixed case and wrong payload sizes', () => {
    const [first] = all;
    assert.ok(first);
    assert.ok('error' in decodeMwebAddress('tmweb', first.address));
    const flipped = first.address.slice(0, -1) + (first.address.endsWith('q') ? 'p' : 'q');
    assert.ok('error' in decodeMwebAddress('ltcmweb', flipped));
    const mixed = first.address.slice(0, 20) + first.address.slice(20).toUpperCase();
    assert.ok('error' in decodeMwebAddress('ltcmweb', mixed));
    const payload = fromHex(first.scan_pubkey + first.spend_pubkey);
    const asBech32m = bech32m.encode('ltcmweb', [0, ...bech32m.toWords(payload)], false);
    assert.ok('error' in decodeMwebAddress('ltcmweb', asBech32m));
    const version1 = bech32.encode('ltcmweb', [1, ...bech32.toWords(payload)], false);
    assert.match((decodeMwebAddress('ltcmweb', version1) as { error: string }).error, /version/);
    const short = bech32.encode('ltcmweb', [0, ...bech32.toWords(payload.subarray(0, 65))], false);
    assert.match((decodeMwebAddress('ltcmweb', short) as { error: string }).error, /66/);
    const badKey = Uint8Array.from(payload);
    badKey[0] = 0x04;
    const uncompressed = bech32.encode('ltcmweb', [0, ...bech32.toWords(badKey)], false);
    assert.match((decodeMwebAddress('ltcmweb', uncompressed) as { error: string }).error, /compressed/);
  });
});
