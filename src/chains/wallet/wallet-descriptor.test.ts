/**
 * Reading wallets: BIP380's checksum and key-expression test vectors, BIP389's invalid multipath vectors (bitcoin/bips),
 * and the refusals a watch-only wallet needs (private keys, other networks' keys, forms that are not one ranged key).
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
    assert.deepEqual(withOrigin.origin, { fingerprint: 'deadbeef', path: [0x80000000, 0x80000001, 0x80000002] });
    assert.deepEqual(withOrigin.chains, [[3, 4, 5]]);
    assert.match(withOrigin.descriptor, new RegExp(`^pkh\\(\\[deadbeef/0h/1h/2h\\]${XPUB}/3/4/5/\\*\\)#[a-z0-9]{8}$`));
    assert.deepEqual(parseWalletDescriptor(BTC, `wpkh(${XPUB}/*)`).chains, [[]]);
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
    refused(BTC, `pkh(${pub})`, /single public key is one address/);
    refused(BTC, `pkh([deadbeef/0h/0h/0h]${pub})`, /single public key/);
    refused(BTC, 'pkh(L4rK1yDtCWekvXuE6oXD9jCYfFNV2cWRpVuPLBcCU2z8TrisoyY1)', /private key \(WIF\)/);
    refused(BTC, `pkh(${XPRV}/0/*)`, /extended private key .*never accepted/);
    refused(BTC, XPRV, /extended private key/);
    refused(BTC, `pkh(${XPUB}/3h/4h/5h/*)`, /hardened derivation after an extended public key needs the private key/);
    refused(BTC, `pkh(${XPUB}/3/*h)`, /hardened wildcard/);
    refused(BTC, `pkh(${XPUB}/3/4)`, /not ranged/);
    refused(BTC, `pkh(${XPUB}/*/3)`, /not ranged/);
    refused(BTC, `pkh(${XPUB}/*/*)`, /bad derivation step '\*'/);
  });
});

describe('BIP389 multipath', () => {
  it('<0;1> names the receive and change chains; the invalid vectors are refused', () => {
    assert.deepEqual(parseWalletDescriptor(BTC, `wpkh(${XPUB}/<0;1>/*)`).chains, [[0], [1]]);
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
    assert.deepEqual(plain.chains, [[0], [1]]);
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

  it('refuses what is not a single-key wallet: other script functions, script trees, garbage, empty, too long', () => {
    refused(BTC, `wsh(pkh(${XPUB}/*))`, /unsupported descriptor wsh\(\)/);
    refused(BTC, `sh(pkh(${XPUB}/*))`, /unsupported descriptor sh\(\)/);
    refused(BTC, `multi(1,${XPUB}/*)`, /unsupported descriptor multi\(\)/);
    refused(BTC, `tr(${XPUB}/*,pk(${XPUB}/1/*))`, /script tree is not supported/);
    refused(BTC, `pkh(pk(${XPUB}/*))`, /takes one key expression/);
    refused(BTC, 'hello(', /not a descriptor|unsupported descriptor/);
    refused(BTC, 'not-a-key', /not a valid extended key/);
    refused(BTC, '', /empty/);
    refused(BTC, `pkh(${XPUB}/${'0/'.repeat(600)}*)`, /too long/);
  });
});
