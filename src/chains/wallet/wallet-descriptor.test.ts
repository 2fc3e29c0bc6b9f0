/**
 * Reading wallets: BIP380's checksum and key-expression test vectors, BIP389's invalid multipath vectors (bitcoin/bips),
 * and the refusals a watch-only wallet needs (private keys, hardened steps after a key, other networks' keys, forms
 * the scripts do not allow). Multisig: multisig-descriptor.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidArgumentError } from '../../core/domain/errors.js';
import { getNetworkParams } from '../networks.js';
import { descriptorChecksum, verifyChecksum } from './descriptor-checksum.js';
import { parseWalletDescriptor } from './wallet-descriptor.js';

const BTC = getNetworkParams('BTC');
const BTCTEST = getNetworkParams('BTCTEST');
const LTC = getNetworkParams('LTC');
const DOGE = getNetworkParams('DOGE');
const XPUB = 'xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL';
const XPRV = 'xprvA1RpRA33e1JQ7ifknakTFpgNXPmW2YvmhqLQYMmrj4xJXXWYpDPS3xz7iAxn8L39njGVyuoseXzU6rcxFLJ8HFsTjSyQbLYnMpCqE2VbFWc';
const ZPUB = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';

function refused(params = BTC, text: string, reason: RegExp): void {
  assert.throws(() => parseWalletDescriptor(params, text), (error: unknown) => {
    assert.ok(error instanceof InvalidArgumentError, `${text}: ${String(error)}`);
    assert.equal(error.field, 'xpub');
    assert.match(error.message, reason, text);
    return true;
  });
}

describe('BIP380 checksum', () => {
  it('the test vectors: valid, absent, missing, too long, too short, error in payload or checksum, bad characters', () => {
    assert.equal(descriptorChecksum('raw(deadbeef)'), '89f8spxm');
    assert.deepEqual(verifyChecksum('raw(deadbeef)#89f8spxm'), { ok: true, body: 'raw(deadbeef)', checksum: '89f8spxm' });
    assert.deepEqual(verifyChecksum('raw(deadbeef)'), { ok: true, body: 'raw(deadbeef)', checksum: null });
    for (const bad of ['raw(deadbeef)#', 'raw(deadbeef)#89f8spxmx', 'raw(deadbeef)#89f8spx', 'raw(deedbeef)#89f8spxm', 'raw(deedbeef)##9f8spxm', 'raw(Ü)#00000000']) {
      assert.equal(verifyChecksum(bad).ok, false, bad);
    }
  });

  it('a wallet with a wrong checksum is refused with the checksum it has', () => {
    const text = `wpkh(${XPUB}/0/*)`;
    const right = descriptorChecksum(text)!;
    assert.equal(parseWalletDescriptor(BTC, `${text}#${right}`).descriptor, `wpkh(${XPUB}/0/*)#${right}`);
    const wrong = right.startsWith('q') ? `p${right.slice(1)}` : `q${right.slice(1)}`;
    refused(BTC, `${text}#${wrong}`, new RegExp(`wrong descriptor checksum: '${wrong}' given, the descriptor's is '${right}'`));
  });
});

describe('BIP380 key expressions', () => {
  it('accepts the ranged extended public key vectors, with origins in either hardened spelling', () => {
    const withOrigin = parseWalletDescriptor(BTC, `pkh([deadbeef/0h/1'/2h]${XPUB}/3/4/5/*)`);
    assert.deepEqual(withOrigin.keys[0]!.origin, { fingerprint: 'deadbeef', path: [0x80000000, 0x80000001, 0x80000002] });
    assert.deepEqual(withOrigin.chains, [[[3, 4, 5]]]);
    assert.match(withOrigin.descriptor, new RegExp(`^pkh\\(\\[deadbeef/0h/1h/2h\\]${XPUB}/3/4/5/\\*\\)#[a-z0-9]{8}$`));
    assert.deepEqual(withOrigin.policy, { form: 'pkh', threshold: null, keys: [{ key: XPUB, fingerprint: 'deadbeef', originPath: '0h/1h/2h', path: '3/4/5/*' }] });
    assert.deepEqual(parseWalletDescriptor(BTC, `wpkh(${XPUB}/*)`).chains, [[[]]]);
  });

  it('keys that are not ranged and plain public keys are one-script wallets (BIP380\'s valid key vectors)', () => {
    const pub = '03a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd';
    const uncompressed = '04a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd5b8dec5235a0fa8722476c7709c02559e3aa73aa03918ba2d492eea75abea235';
    for (const text of [`pkh(${pub})`, `pkh([deadbeef/1/2'/3/4']${pub})`, `pkh(${uncompressed})`, `pkh(${XPUB}/3/4)`, `pkh(${XPUB})`, `wpkh(${pub.toUpperCase().replace('03A', '03a')})`]) {
      const wallet = parseWalletDescriptor(BTC, text);
      assert.equal(wallet.ranged, false, text);
      assert.equal(wallet.chains.length, 1, text);
    }
    assert.match(parseWalletDescriptor(BTC, `pkh([DEADBEEF/1/2'/3/4']${pub})`).descriptor, /^pkh\(\[deadbeef\/1\/2h\/3\/4h\]03a34b/, 'lower-case fingerprint, h for hardened');
    assert.equal(parseWalletDescriptor(BTC, `pkh(${XPUB}/<0;1>)`).chains.length, 2, 'a multipath key without * is one script on each chain');
    refused(BTC, `wpkh(${uncompressed})`, /uncompressed public keys are not allowed in segwit/);
    refused(BTC, `pkh(${pub}/0)`, /plain public key takes no derivation steps/);
    refused(BTC, `pkh(02${'00'.repeat(32)})`, /not a point on the curve/);
    refused(BTC, `pkh(07${uncompressed.slice(2)})`, /hybrid or malformed/);
    refused(BTC, `pkh(${'a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd'})`, /x-only public key \(32 bytes\) is only valid in tr\(\)/);
    refused(BTC, pub, /a public key alone is no wallet/);
  });

  it('refuses the invalid vectors and the forms a watch-only wallet cannot be', () => {
    const pub = '0260b2003c386519fc9eadf2b5cf124dd8eea4c4e68d5e154050a9346ea98ce600';
    refused(BTC, `pkh([deadbeef/0h/0h/0h/*]${XPUB}/*)`, /bad step '\*' in the key origin/);
    refused(BTC, `pkh([deadbeef/0h/0h/0h/]${XPUB}/*)`, /bad step '' in the key origin/);
    refused(BTC, `pkh([deadbef/0h/0h/0h]${XPUB}/*)`, /fingerprint must be 8 hex digits/);
    refused(BTC, `pkh([deadbeeef/0h/0h/0h]${XPUB}/*)`, /fingerprint must be 8 hex digits/);
    refused(BTC, `pkh([deadbeef/0f/0f/0f]${XPUB}/*)`, /bad step '0f'/);
    refused(BTC, `pkh([deadbeef/-0/-0/-0]${XPUB}/*)`, /bad step '-0'/);
    refused(BTC, `pkh([deadbeef/0H/0H/0H]${XPUB}/*)`, /bad step '0H'/);
    refused(BTC, `pkh(${XPUB}/2147483648/*)`, /out of range/);
    refused(BTC, `pkh(${XPUB}/1aa/*)`, /bad derivation step '1aa'/);
    refused(BTC, `pkh([aaaaaaaa][aaaaaaaa]${XPUB}/*)`, /not a valid extended key/);
    refused(BTC, `pkh(aaaaaaaa]${XPUB}/*)`, /without its opening/);
    refused(BTC, `pkh([gaaaaaaa]${XPUB}/*)`, /fingerprint/);
    refused(BTC, 'pkh([deadbeef])', /no key/);
    refused(BTC, `pkh([deadbeef/0h/0h/0h/*]${pub})`, /bad step '\*' in the key origin/);
    refused(BTC, 'pkh(L4rK1yDtCWekvXuE6oXD9jCYfFNV2cWRpVuPLBcCU2z8TrisoyY1)', /private key \(WIF\)/);
    refused(BTC, `pkh(${XPRV}/0/*)`, /extended private key .*never accepted/);
    refused(BTC, XPRV, /extended private key/);
    refused(BTC, `pkh(${XPUB}/3h/4h/5h/*)`, /hardened derivation after an extended public key needs the private key/);
    refused(BTC, `pkh(${XPUB}/3/*h)`, /hardened wildcard/);
    refused(BTC, `pkh(${XPUB}/3h)`, /hardened derivation after an extended public key/);
    refused(BTC, `pkh(${XPUB}/*/3)`, /'\*' can only be the last derivation step/);
    refused(BTC, `pkh(${XPUB}/*/*)`, /'\*' can only be the last derivation step/);
  });
});

describe('BIP389 multipath', () => {
  it('<0;1> names the receive and change chains; the invalid vectors are refused', () => {
    assert.deepEqual(parseWalletDescriptor(BTC, `wpkh(${XPUB}/<0;1>/*)`).chains, [[[0]], [[1]]]);
    refused(BTC, `pkh(${XPUB}/<0;1>/<2;3>/*)`, /at most one multipath step/);
    refused(BTC, `pkh([deadbeef/<0;1>]${XPUB}/*)`, /bad step '<0;1>' in the key origin/);
    refused(BTC, `wpkh(${XPUB}/<>/*)`, /bad index ''/);
    refused(BTC, `wpkh(${XPUB}/0>/*)`, /bad derivation step '0>'/);
    refused(BTC, `wpkh(${XPUB}/<0/*)`, /no closing '>'/);
    refused(BTC, `wpkh(${XPUB}/<0;>/*)`, /bad index ''/);
    refused(BTC, `wpkh(${XPUB}/<0;1;2>/*)`, /names 3/);
    refused(BTC, `wpkh(${XPUB}/<0h;1>/*)`, /hardened/);
  });
});

describe('networks and script forms', () => {
  it('a plain key implies its script and chains 0 and 1; every form normalises to one descriptor', () => {
    const plain = parseWalletDescriptor(BTC, ZPUB);
    assert.equal(plain.kind, 'wpkh');
    assert.deepEqual(plain.chains, [[[0]], [[1]]]);
    assert.equal(parseWalletDescriptor(BTC, plain.descriptor).descriptor, plain.descriptor, 'the normalised form reads back to itself');
    const spelledOut = parseWalletDescriptor(BTC, plain.descriptor.replace(/#.*/, '').replace('<0;1>', '<0;1>'));
    assert.equal(spelledOut.descriptor, plain.descriptor);
  });

  it('a key of another network is refused, naming where it belongs', () => {
    refused(BTCTEST, ZPUB, /a zpub key belongs to Bitcoin, Litecoin, not Bitcoin Testnet \(its keys start with tpub, upub or vpub\)/);
    refused(BTCTEST, `wpkh(${XPUB}/0/*)`, /belongs to Bitcoin, Litecoin, not Bitcoin Testnet/);
    refused(DOGE, XPUB, /belongs to Bitcoin, Litecoin, not Dogecoin \(its keys start with dgub\)/);
    assert.equal(parseWalletDescriptor(LTC, XPUB).kind, 'pkh', 'Litecoin Core writes xpub too');
  });

  it('segwit and taproot forms are refused on a chain without segwit, with the reason', () => {
    const dgub = 'dgub8rjvUmFc6cqR6NRBEj2FBZCHUDUrykPyv24Vea6bCsPex5PzNFrRtr4KN37XgwuVzzC2MikJRW2Ddcp99Ehsqp2iaU4eerNCJVruKxz6Gci';
    refused(DOGE, `wpkh(${dgub}/0/*)`, /Dogecoin has no segwit/);
    refused(DOGE, `tr(${dgub}/0/*)`, /Dogecoin has no segwit/);
    assert.equal(parseWalletDescriptor(DOGE, `pkh(${dgub}/0/*)`).kind, 'pkh');
  });

  it('refuses what it does not read: miniscript, other nestings, script trees, garbage, empty, too long', () => {
    refused(BTC, `wsh(pkh(${XPUB}/*))`, /wsh\(\) takes multi\(\) or sortedmulti\(\) here, not pkh\(\) \(miniscript is not supported\)/);
    refused(BTC, `wsh(and_v(v:pk(${XPUB}/*),older(10)))`, /miniscript is not supported/);
    refused(BTC, `sh(pkh(${XPUB}/*))`, /sh\(\) takes wpkh\(\), wsh\(\), multi\(\) or sortedmulti\(\) here, not pkh\(\)/);
    refused(BTC, `sh(wsh(wpkh(${XPUB}/*)))`, /sh\(wsh\(…\)\) takes multi\(\) or sortedmulti\(\)/);
    refused(BTC, `tr(${XPUB}/*,pk(${XPUB}/1/*))`, /script tree is not supported/);
    refused(BTC, `pkh(pk(${XPUB}/*))`, /takes one key expression/);
    refused(BTC, `rawtr(${XPUB}/*)`, /unsupported descriptor rawtr\(\)/);
    refused(BTC, `sortedmulti_a(1,${XPUB}/*)`, /unsupported descriptor sortedmulti_a\(\)/);
    refused(BTC, `pkh(${XPUB}/*)x`, /unexpected 'x' after pkh/);
    refused(BTC, 'hello(', /no closing/);
    refused(BTC, 'Hello(x)', /no script function name/);
    refused(BTC, 'not-a-key', /not a valid extended key/);
    refused(BTC, '', /empty/);
    refused(BTC, `pkh(${XPUB}/${'0/'.repeat(2100)}*)`, /too long/);
  });
});
