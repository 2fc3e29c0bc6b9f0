import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { InvalidArgumentError } from '../../core/domain/errors.js';
import { NETWORK_IDS, type NetworkId } from '../../core/domain/network.js';
import { fromHex, toHex } from '../hash.js';
import { getNetworkParams } from '../networks.js';
import { getP2pkPubkey } from '../script/classify.js';
import { decodeBase58Address } from './base58-address.js';
import { addressToScript, decodeAddress, isValidAddress, pubkeyToP2pkhAddress, scriptToAddress } from './address.js';

const FIXTURES = new URL('../../../../shared/fixtures/', import.meta.url);
const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, FIXTURES), 'utf8'));

interface AddressFixture {
  valid: { address: string; script_hex: string; type: string; canonical_form?: string }[];
  invalid: { address: string; reason?: string }[];
  mweb_stealth_addresses?: { address: string }[];
  not_deployed_bech32_vectors?: { address: string }[];
}

const KIND_OF_TYPE: Record<string, string> = {
  pubkeyhash: 'pubkeyhash',
  scripthash: 'scripthash',
  witness_v0_keyhash: 'witness',
  witness_v0_scripthash: 'witness',
  witness_v1_taproot: 'witness',
  witness_unknown: 'witness',
};

for (const id of NETWORK_IDS) {
  const params = getNetworkParams(id);
  const fixture = readJson(`addresses/${id}.json`) as AddressFixture;

  describe(`${id} addresses`, () => {
    it(`decodes all ${fixture.valid.length} valid addresses to their script and re-encodes them canonically`, () => {
      for (const v of fixture.valid) {
        const decoded = decodeAddress(params, v.address);
        assert.equal(decoded.kind, KIND_OF_TYPE[v.type], v.address);
        assert.equal(toHex(addressToScript(params, v.address)), v.script_hex, v.address);
        assert.equal(scriptToAddress(params, fromHex(v.script_hex)), v.canonical_form ?? v.address, v.address);
        assert.ok(isValidAddress(params, v.address));
      }
    });

    it(`rejects all ${fixture.invalid.length} invalid addresses with InvalidArgumentError('address')`, () => {
      for (const v of fixture.invalid) {
        assert.equal(isValidAddress(params, v.address), false, `${v.address} (${v.reason ?? 'core vector'})`);
        assert.throws(
          () => decodeAddress(params, v.address),
          (err: unknown) => err instanceof InvalidArgumentError && err.field === 'address',
          v.address,
        );
      }
    });

    if (fixture.mweb_stealth_addresses) {
      it('accepts MWEB stealth addresses as kind mweb without a script', () => {
        for (const { address } of fixture.mweb_stealth_addresses ?? []) {
          assert.deepEqual(decodeAddress(params, address), { kind: 'mweb', script: null });
          assert.ok(isValidAddress(params, address));
          assert.ok(isValidAddress(params, address.toUpperCase()));
          assert.throws(() => addressToScript(params, address), InvalidArgumentError);
        }
      });
    }

    if (fixture.not_deployed_bech32_vectors) {
      it('rejects Dogecoin Core bech32 vectors (segwit is not deployed)', () => {
        for (const { address } of fixture.not_deployed_bech32_vectors ?? []) {
          assert.equal(isValidAddress(params, address), false, address);
        }
      });
    }
  });
}

describe('addresses across networks', () => {
  it('accepts an address only on its own network, unless both networks share its base58 version', () => {
    for (const id of NETWORK_IDS) {
      for (const other of NETWORK_IDS.filter((o) => o !== id)) {
        const otherParams = getNetworkParams(other);
        for (const v of (readJson(`addresses/${id}.json`) as AddressFixture).valid) {
          const base58 = decodeBase58Address(v.address);
          // Shared bytes: BTC/LTC testnets (111/196), BTC and LTC P2SH 5, DOGETEST P2SH 196.
          if (!('error' in base58) && [otherParams.pubkeyHashVersion, ...otherParams.scriptHashVersions].includes(base58.version)) {
            continue;
          }
          assert.equal(isValidAddress(otherParams, v.address), false, `${v.address} (${id}) on ${other}`);
        }
      }
    }
  });

  it('MWEB stealth addresses are rejected on the other networks', () => {
    const ltc = (readJson('addresses/LTC.json') as AddressFixture).mweb_stealth_addresses ?? [];
    const tltc = (readJson('addresses/LTCTEST.json') as AddressFixture).mweb_stealth_addresses ?? [];
    for (const id of ['BTC', 'BTCTEST', 'LTCTEST', 'DOGE', 'DOGETEST'] as const) {
      for (const { address } of ltc) assert.equal(isValidAddress(getNetworkParams(id), address), false, `${address} on ${id}`);
    }
    for (const { address } of tltc) {
      assert.equal(isValidAddress(getNetworkParams('LTC'), address), false);
      assert.ok(isValidAddress(getNetworkParams('LTCTEST', 'regtest'), address)); // regtest shares hrp tmweb
    }
  });

  it('uses the regtest hrps on regtest', () => {
    const btcReg = getNetworkParams('BTCTEST', 'regtest');
    const ltcReg = getNetworkParams('LTCTEST', 'regtest');
    const btcInvalid = (readJson('addresses/BTCTEST.json') as AddressFixture).invalid.filter((v) => v.address.startsWith('bcrt1'));
    const ltcInvalid = (readJson('addresses/LTCTEST.json') as AddressFixture).invalid.filter((v) => v.address.startsWith('rltc1'));
    assert.ok(btcInvalid.length > 0 && ltcInvalid.length > 0);
    // Those listed because of the network (not because they are malformed) decode on regtest.
    for (const v of btcInvalid.filter((x) => x.reason?.includes('regtest'))) assert.ok(isValidAddress(btcReg, v.address), v.address);
    for (const v of ltcInvalid.filter((x) => x.reason?.includes('regtest'))) assert.ok(isValidAddress(ltcReg, v.address), v.address);
    const script = fromHex('0014' + '11'.repeat(20));
    assert.match(scriptToAddress(btcReg, script) ?? '', /^bcrt1q/);
    assert.match(scriptToAddress(ltcReg, script) ?? '', /^rltc1q/);
  });

  it('reads base58 addresses starting with LTC1 as base58, not bech32', () => {
    const ltc = getNetworkParams('LTC');
    assert.equal(decodeAddress(ltc, 'LTC1eqUzePT9uvpvb413Ejd6P8Cx1Ei8Di').kind, 'pubkeyhash');
    assert.equal(decodeAddress(ltc, 'LTC1f9gtb7bU6B4VjHXvPGDi8ACNZhkKPo').kind, 'pubkeyhash');
  });

  it('reports the witness version of segwit addresses', () => {
    const btc = getNetworkParams('BTC');
    assert.equal(decodeAddress(btc, 'bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lhv').witnessVersion, 0);
    assert.equal(decodeAddress(btc, 'bc1sw50qgdz25j').witnessVersion, 16);
  });

  it('rejects non-strings, empty strings and surrounding whitespace', () => {
    const btc = getNetworkParams('BTC');
    assert.equal(isValidAddress(btc, ''), false);
    assert.equal(isValidAddress(btc, ' 1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo'), false);
    assert.equal(isValidAddress(btc, '1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo\n'), false);
    assert.equal(isValidAddress(btc, 'x'.repeat(10_000)), false);
    assert.equal(isValidAddress(btc, undefined as unknown as string), false);
  });
});

interface Vout {
  n: number;
  script_hex: string;
  type: string;
  address?: string | null;
  address_if_LTC?: string | null;
  address_if_LTCTEST?: string | null;
  p2pk_pubkey_hash_address?: string;
}

function fixtureOutputs(): { where: string; network: NetworkId; vout: Vout }[] {
  const out: { where: string; network: NetworkId; vout: Vout }[] = [];
  for (const dir of ['txs', 'blocks']) {
    for (const file of readdirSync(new URL(`${dir}/`, FIXTURES)).filter((f) => f.endsWith('.json'))) {
      const json = readJson(`${dir}/${file}`);
      const txs: { vout?: Vout[] }[] = dir === 'txs' ? [json.expected] : (json.expected.txs ?? []);
      txs.forEach((tx, i) => {
        for (const vout of tx.vout ?? []) out.push({ where: `${file} tx${i} out${vout.n}`, network: json.network, vout });
      });
    }
  }
  return out;
}

describe('scriptToAddress over fixture outputs', () => {
  it('gives the address of every tx and block fixture output (null where Core gives none)', () => {
    let withAddress = 0;
    for (const { where, network, vout } of fixtureOutputs()) {
      const script = fromHex(vout.script_hex);
      if ('address_if_LTC' in vout || 'address_if_LTCTEST' in vout) {
        assert.equal(scriptToAddress(getNetworkParams('LTC'), script), vout.address_if_LTC ?? null, `${where} as LTC`);
        assert.equal(scriptToAddress(getNetworkParams('LTCTEST'), script), vout.address_if_LTCTEST ?? null, `${where} as LTCTEST`);
      } else {
        assert.equal(scriptToAddress(getNetworkParams(network), script), vout.address ?? null, where);
      }
      if (vout.address) withAddress++;
      if (vout.p2pk_pubkey_hash_address !== undefined) {
        const key = getP2pkPubkey(script);
        assert.ok(key, where);
        assert.equal(pubkeyToP2pkhAddress(getNetworkParams(network), key), vout.p2pk_pubkey_hash_address, where);
      }
    }
    assert.ok(withAddress > 250, `only ${withAddress} outputs with an address`);
  });

  it('encodes witness outputs only on chains with bech32', () => {
    const v0 = fromHex('0014' + '75'.repeat(20));
    assert.equal(scriptToAddress(getNetworkParams('DOGE'), v0), null);
    assert.equal(scriptToAddress(getNetworkParams('BTC'), fromHex('51024e73')), 'bc1pfeessrawgf'); // pay-to-anchor
    // OP_9 + 32 bytes is an MWEB peg-in on Litecoin (no address) but a v9 witness output elsewhere.
    const pegin = fromHex('5920' + '11'.repeat(32));
    assert.equal(scriptToAddress(getNetworkParams('LTC'), pegin), null);
    assert.match(scriptToAddress(getNetworkParams('BTC'), pegin) ?? '', /^bc1f/);
  });

  it('rejects keys of invalid size in pubkeyToP2pkhAddress', () => {
    assert.throws(() => pubkeyToP2pkhAddress(getNetworkParams('BTC'), new Uint8Array(20)), InvalidArgumentError);
  });
});
