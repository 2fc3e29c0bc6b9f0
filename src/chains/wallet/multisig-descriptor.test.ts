/**
 * BIP383's test vectors (bitcoin/bips bip-0383.mediawiki), valid and invalid, and the refusals around them: k out
 * of range, more keys than the script allows (Core's descriptor.cpp: 20, bare 3, P2SH's 520-byte redeem script),
 * uncompressed keys in segwit, hardened steps after a key, another network's key among the cosigners, a wrong
 * checksum, segwit on Dogecoin. BIP383 writes several vectors with private keys, which a wallet here never takes:
 * each is given by its public keys instead (derived below from the BIP's WIF and xprv keys), which the BIP's
 * scripts must still match. BIP385's addr()/raw() and combo()'s forms follow.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { HDKey } from '@scure/bip32';
import { InvalidArgumentError } from '../../core/domain/errors.js';
import { decodeBase58Check } from '../address/base58.js';
import { toHex } from '../hash.js';
import type { NetworkParams } from '../network-params.js';
import { getNetworkParams } from '../networks.js';
import { descriptorChecksum } from './descriptor-checksum.js';
import { multiScript } from './descriptor-scripts.js';
import { ChainDerivation } from './wallet-derivation.js';
import { parseWalletDescriptor } from './wallet-descriptor.js';

const BTC = getNetworkParams('BTC');
const BTCTEST = getNetworkParams('BTCTEST');
const DOGE = getNetworkParams('DOGE');

/** A WIF private key's public key (compressed when the WIF says so): the BIP's vectors in public form. */
function wifPub(wif: string): string {
  const bytes = decodeBase58Check(wif)!;
  return toHex(secp256k1.getPublicKey(bytes.subarray(1, 33), bytes.length === 34));
}

const xpubOf = (xprv: string): string => HDKey.fromExtendedKey(xprv).publicExtendedKey;

function scripts(params: NetworkParams, text: string, count = 1, chain = 0): string[] {
  const derivation = new ChainDerivation(parseWalletDescriptor(params, text), chain);
  return Array.from({ length: count }, (_, i) => toHex(derivation.script(i)));
}

function refused(params: NetworkParams, text: string, reason: RegExp): void {
  assert.throws(() => parseWalletDescriptor(params, text), (error: unknown) => {
    assert.ok(error instanceof InvalidArgumentError, `${text.slice(0, 60)}: ${String(error)}`);
    assert.match(error.message, reason, text.slice(0, 80));
    return true;
  });
}

const PUB = '03a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd';
const UNCOMPRESSED = '04a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd5b8dec5235a0fa8722476c7709c02559e3aa73aa03918ba2d492eea75abea235';
const SIXTEEN = [
  '03669b8afcec803a0d323e9a17f3ea8e68e8abe5a278020a929adbec52421adbd0', '0260b2003c386519fc9eadf2b5cf124dd8eea4c4e68d5e154050a9346ea98ce600',
  '0362a74e399c39ed5593852a30147f2959b56bb827dfa3e60e464b02ccf87dc5e8', '0261345b53de74a4d721ef877c255429961b7e43714171ac06168d7e08c542a8b8',
  '02da72e8b46901a65d4374fe6315538d8f368557dda3a1dcf9ea903f3afe7314c8', '0318c82dd0b53fd3a932d16e0ba9e278fcc937c582d5781be626ff16e201f72286',
  '0297ccef1ef99f9d73dec9ad37476ddb232f1238aff877af19e72ba04493361009', '02e502cfd5c3f972fe9a3e2a18827820638f96b6f347e54d63deb839011fd5765d',
  '03e687710f0e3ebe81c1037074da939d409c0025f17eb86adb9427d28f0f7ae0e9', '02c04d3a5274952acdbc76987f3184b346a483d43be40874624b29e3692c1df5af',
  '02ed06e0f418b5b43a7ec01d1d7d27290fa15f75771cb69b642a51471c29c84acd', '036d46073cbb9ffee90473f3da429abc8de7f8751199da44485682a989a4bebb24',
  '02f5d1ff7c9029a80a4e36b9a5497027ef7f3e73384a4a94fbfe7c4e9164eec8bc', '02e41deffd1b7cce11cde209a781adcffdabd1b91c0ba0375857a2bfd9302419f3',
  '02d76625f7956a7fc505ab02556c23ee72d832f1bac391bcd2d3abce5710a13d06', '0399eb0a5487515802dc14544cf10b3666623762fbed2ec38a3975716e2c29c232',
];
const TWENTY_WIF = [
  'KzoAz5CanayRKex3fSLQ2BwJpN7U52gZvxMyk78nDMHuqrUxuSJy', 'KwGNz6YCCQtYvFzMtrC6D3tKTKdBBboMrLTsjr2NYVBwapCkn7Mr', 'KxogYhiNfwxuswvXV66eFyKcCpm7dZ7TqHVqujHAVUjJxyivxQ9X',
  'L2BUNduTSyZwZjwNHynQTF14mv2uz2NRq5n5sYWTb4FkkmqgEE9f', 'L1okJGHGn1kFjdXHKxXjwVVtmCMR2JA5QsbKCSpSb7ReQjezKeoD', 'KxDCNSST75HFPaW5QKpzHtAyaCQC7p9Vo3FYfi2u4dXD1vgMiboK',
  'L5edQjFtnkcf5UWURn6UuuoFrabgDQUHdheKCziwN42aLwS3KizU', 'KzF8UWFcEC7BYTq8Go1xVimMkDmyNYVmXV5PV7RuDicvAocoPB8i', 'L3nHUboKG2w4VSJ5jYZ5CBM97oeK6YuKvfZxrefdShECcjEYKMWZ',
  'KyjHo36dWkYhimKmVVmQTq3gERv3pnqA4xFCpvUgbGDJad7eS8WE', 'KwsfyHKRUTZPQtysN7M3tZ4GXTnuov5XRgjdF2XCG8faAPmFruRF', 'KzCUbGhN9LJhdeFfL9zQgTJMjqxdBKEekRGZX24hXdgCNCijkkap',
  'KzgpMBwwsDLwkaC5UrmBgCYaBD2WgZ7PBoGYXR8KT7gCA9UTN5a3', 'KyBXTPy4T7YG4q9tcAM3LkvfRpD1ybHMvcJ2ehaWXaSqeGUxEdkP', 'KzJDe9iwJRPtKP2F2AoN6zBgzS7uiuAwhWCfGdNeYJ3PC1HNJ8M8',
  'L1xbHrxynrqLKkoYc4qtoQPx6uy5qYXR5ZDYVYBSRmCV5piU3JG9', 'KzRedjSwMggebB3VufhbzpYJnvHfHe9kPJSjCU5QpJdAW3NSZxYS', 'Kyjtp5858xL7JfeV4PNRCKy2t6XvgqNNepArGY9F9F1SSPqNEMs3',
  'L2D4RLHPiHBidkHS8ftx11jJk1hGFELvxh8LoxNQheaGT58dKenW', 'KyLPZdwY4td98bKkXqEXTEBX3vwEYTQo1yyLjX2jKXA63GBpmSjv',
];
const BARE_1_OF_2 = `5121${PUB}41${UNCOMPRESSED}52ae`;

describe('BIP383 valid vectors', () => {
  it('multi(1,…) and sortedmulti(1,…) bare, with a compressed and an uncompressed key', () => {
    assert.equal(wifPub('L4rK1yDtCWekvXuE6oXD9jCYfFNV2cWRpVuPLBcCU2z8TrisoyY1'), PUB);
    assert.equal(wifPub('5KYZdUEo39z3FPrtuX2QbbwGnNP5zTd7yyr2SC1j299sBCnWjss'), UNCOMPRESSED);
    assert.deepEqual(scripts(BTC, `multi(1,${PUB},${UNCOMPRESSED})`), [BARE_1_OF_2]);
    assert.deepEqual(scripts(BTC, `sortedmulti(1,${UNCOMPRESSED},${PUB})`), [BARE_1_OF_2], 'sorted bytewise: 03… before 04…');
  });

  it('sh(multi(2,[00000000/111\'/222]KEY,KEY/0)) with the BIP\'s xprv keys as xpubs', () => {
    const a = xpubOf('xprvA1RpRA33e1JQ7ifknakTFpgNXPmW2YvmhqLQYMmrj4xJXXWYpDPS3xz7iAxn8L39njGVyuoseXzU6rcxFLJ8HFsTjSyQbLYnMpCqE2VbFWc');
    const b = xpubOf('xprv9uPDJpEQgRQfDcW7BkF7eTya6RPxXeJCqCJGHuCJ4GiRVLzkTXBAJMu2qaMWPrS7AANYqdq6vcBcBUdJCVVFceUvJFjaPdGZ2y9WACViL4L');
    const wallet = parseWalletDescriptor(BTC, `sh(multi(2,[00000000/111'/222]${a},${b}/0))`);
    assert.equal(wallet.ranged, false);
    assert.equal(toHex(new ChainDerivation(wallet, 0).script(0)), 'a91445a9a622a8b0a1269944be477640eedc447bbd8487');
    assert.deepEqual(wallet.policy, {
      form: 'sh(multi)', threshold: 2,
      keys: [{ key: a, fingerprint: '00000000', originPath: '111h/222', path: '' }, { key: b, fingerprint: null, originPath: null, path: '0' }],
    });
  });

  it('sortedmulti(2,xpub/*,xpub/0/0/*): keys in lockstep, the 0th, 1st and 2nd scripts', () => {
    const text = 'sortedmulti(2,xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL/*,' +
      'xpub68NZiKmJWnxxS6aaHmn81bvJeTESw724CRDs6HbuccFQN9Ku14VQrADWgqbhhTHBaohPX4CjNLf9fq9MYo6oDaPPLPxSb7gwQN3ih19Zm4Y/0/0/*)';
    assert.deepEqual(scripts(BTC, text, 3), [
      '5221025d5fc65ebb8d44a5274b53bac21ff8307fec2334a32df05553459f8b1f7fe1b62102fbd47cc8034098f0e6a94c6aeee8528abf0a2153a5d8e46d325b7284c046784652ae',
      '52210264fd4d1f5dea8ded94c61e9641309349b62f27fbffe807291f664e286bfbe6472103f4ece6dfccfa37b211eb3d0af4d0c61dba9ef698622dc17eecdf764beeb005a652ae',
      '5221022ccabda84c30bad578b13c89eb3b9544ce149787e5b538175b1d1ba259cbb83321024d902e1a2fc7a8755ab5b694c575fce742c48d9ff192e63df5193e4c7afe1f9c52ae',
    ]);
    // Paths differ per key: each key's, comma-separated.
    assert.equal(new ChainDerivation(parseWalletDescriptor(BTC, text), 0).path(2), '2,0/0/2');
  });

  it('wsh(multi(2,…)) with a hardened wildcard: only its script builder can be checked (private derivation)', () => {
    // The BIP's third key ends in /*' (hardened): a watch-only wallet cannot derive it, and the parser says so.
    const k1 = HDKey.fromExtendedKey('xprv9s21ZrQH143K31xYSDQpPDxsXRTUcvj2iNHm5NUtrGiGG5e2DtALGdso3pGz6ssrdK4PFmM8NSpSBHNqPqm55Qn3LqFtT2emdEXVYsCzC2U').derive("m/2147483647'/0");
    const k2 = HDKey.fromExtendedKey('xprv9vHkqa6EV4sPZHYqZznhT2NPtPCjKuDKGY38FBWLvgaDx45zo9WQRUT3dKYnjwih2yJD9mkrocEZXo1ex8G81dwSM1fwqWpWkeS3v86pgKt').derive('m/1/2');
    const k3 = HDKey.fromExtendedKey('xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi').derive('m/10/20/30/40');
    const at = (i: number) => toHex(multiScript('wsh-multi', 2, [k1.publicKey!, k2.deriveChild(i).publicKey!, k3.deriveChild(i + 0x80000000).publicKey!], false));
    assert.deepEqual([0, 1, 2].map(at), [
      '0020b92623201f3bb7c3771d45b2ad1d0351ea8fbf8cfe0a0e570264e1075fa1948f',
      '002036a08bbe4923af41cf4316817c93b8d37e2f635dd25cfff06bd50df6ae7ea203',
      '0020a96e7ab4607ca6b261bfe3245ffda9c746b28d3f59e83d34820ec0e2b36c139c',
    ]);
    refused(BTC, `wsh(multi(2,${k1.publicExtendedKey},${xpubOf(k3.privateExtendedKey)}/*'))`, /key 2 of 2: hardened wildcard/);
  });

  it('sh(wsh(multi(16,…))), and wsh/sh(wsh) of 20 keys with k = 20 (a number push, not OP_n)', () => {
    assert.deepEqual(scripts(BTC, `sh(wsh(multi(16,${SIXTEEN.join(',')})))`), ['a9147fc63e13dc25e8a95a3cee3d9a714ac3afd96f1e87']);
    const twenty = TWENTY_WIF.map(wifPub).join(',');
    assert.deepEqual(scripts(BTC, `wsh(multi(20,${twenty}))`), ['0020376bd8344b8b6ebe504ff85ef743eaa1aa9272178223bcb6887e9378efb341ac']);
    assert.deepEqual(scripts(BTC, `sh(wsh(multi(20,${twenty})))`), ['a914c2c9c510e9d7f92fd6131e94803a8d34a8ef675e87']);
  });
});

describe('BIP383 invalid vectors and the refusals around them', () => {
  it('more than 15 keys in P2SH multisig; a threshold that is no number, 0, or above n', () => {
    refused(BTC, `sh(multi(16,${SIXTEEN.join(',')}))`, /sh\(multi\(\)\) with 16 keys is a 547-byte redeem script, over P2SH's 520 bytes/);
    assert.equal(parseWalletDescriptor(BTC, `sh(multi(15,${SIXTEEN.slice(0, 15).join(',')}))`).keys.length, 15, '15 compressed keys: 513 bytes');
    refused(BTC, `multi(a,${PUB},${UNCOMPRESSED})`, /threshold 'a' is not a number/);
    refused(BTC, `multi(0,${PUB},${UNCOMPRESSED})`, /threshold of 0; it must be at least 1/);
    refused(BTC, `multi(3,${PUB},${UNCOMPRESSED})`, /threshold of 3 with only 2 keys/);
    // The BIP's own text of that vector (private keys): refused for the threshold before its keys are read.
    refused(BTC, 'multi(3,L4rK1yDtCWekvXuE6oXD9jCYfFNV2cWRpVuPLBcCU2z8TrisoyY1,5KYZdUEo39z3FPrtuX2QbbwGnNP5zTd7yyr2SC1j299sBCnWjss)', /threshold of 3 with only 2 keys/);
    refused(BTC, 'multi(1,L4rK1yDtCWekvXuE6oXD9jCYfFNV2cWRpVuPLBcCU2z8TrisoyY1)', /key 1 of 1: this is a private key \(WIF\)/);
  });

  it('k and n limits by where the multisig stands: 20 keys, bare 3, uncompressed only outside segwit (8 of them overflow P2SH)', () => {
    const twentyOne = [...TWENTY_WIF.map(wifPub), SIXTEEN[0]!].join(',');
    refused(BTC, `wsh(multi(1,${twentyOne}))`, /21 keys; a multisig script takes 1 to 20/);
    refused(BTC, `multi(1,${SIXTEEN.slice(0, 4).join(',')})`, /bare multi\(\) with 4 keys: at most 3/);
    refused(BTC, `multi(1)`, /no keys after the threshold/);
    refused(BTC, `wsh(multi(1,${PUB},${UNCOMPRESSED}))`, /key 2 of 2: uncompressed public keys are not allowed in segwit/);
    refused(BTC, `sh(wsh(sortedmulti(1,${UNCOMPRESSED})))`, /uncompressed public keys are not allowed/);
    const uncompressed = (n: number) => Array.from({ length: n }, () => UNCOMPRESSED).join(',');
    assert.equal(parseWalletDescriptor(BTC, `sh(multi(1,${uncompressed(7)}))`).keys.length, 7, '7 × 66 + 3 = 465 bytes');
    refused(BTC, `sh(multi(1,${uncompressed(8)}))`, /with 8 keys is a 531-byte redeem script/);
  });

  it('hardened steps after a key, another network\'s key among the cosigners, a wrong checksum', () => {
    const tpub = 'tpubDDwf2gdFxFahr9RUtDQCuZmsx34CfdZ7RALAirwC2FGeLBzW1TDiEpqFeRdxLdZD7rfsbZHYwSaT6CLM3TAcYRw6xfRv4U6KCQt4Zuhvjkz';
    const tpub2 = 'tpubDEXiq2SVhhqALktxfVFgj3C9M3T2G7xL11iezYg2LJAf245YkNyqp2K9TrvHABDCp2232k34UegU4aKEtUZNigit8EEqoLNe2JKMzMiLwYq';
    const xpub = 'xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL';
    refused(BTCTEST, `wsh(sortedmulti(2,${tpub}/<0;1>/*,${tpub2}/0h/<0;1>/*))`, /sortedmulti\(\) key 2 of 2: hardened derivation after an extended public key/);
    refused(BTCTEST, `wsh(sortedmulti(2,${tpub}/<0;1>/*,${xpub}/<0;1>/*))`, /key 2 of 2: a xpub key belongs to Bitcoin, Litecoin, not Bitcoin Testnet/);
    refused(BTCTEST, `wsh(sortedmulti(2,${tpub}/<0;1>/*,${tpub2}/<0;1;2>/*))`, /names 3/);
    const body = `wsh(sortedmulti(2,${tpub}/<0;1>/*,${tpub2}/<0;1>/*))`;
    const right = descriptorChecksum(body)!;
    assert.equal(parseWalletDescriptor(BTCTEST, `${body}#${right}`).descriptor, `${body}#${right}`);
    refused(BTCTEST, `${body}#${right.startsWith('q') ? 'p' : 'q'}${right.slice(1)}`, new RegExp(`wrong descriptor checksum: .* the descriptor's is '${right}'`));
  });

  it('multipath keys line up: receive and change per key; a key without multipath serves both chains', () => {
    const [a, b] = ['tpubDDwf2gdFxFahr9RUtDQCuZmsx34CfdZ7RALAirwC2FGeLBzW1TDiEpqFeRdxLdZD7rfsbZHYwSaT6CLM3TAcYRw6xfRv4U6KCQt4Zuhvjkz', 'tpubDEXiq2SVhhqALktxfVFgj3C9M3T2G7xL11iezYg2LJAf245YkNyqp2K9TrvHABDCp2232k34UegU4aKEtUZNigit8EEqoLNe2JKMzMiLwYq'];
    const wallet = parseWalletDescriptor(BTCTEST, `wsh(sortedmulti(2,${a}/<0;1>/*,${b}/7/*,${PUB}))`);
    assert.deepEqual(wallet.chains, [[[0], [7], []], [[1], [7], []]]);
    assert.deepEqual(scripts(BTCTEST, `wsh(sortedmulti(2,${a}/<0;1>/*,${b}/7/*,${PUB}))`, 3, 1), scripts(BTCTEST, `wsh(sortedmulti(2,${a}/1/*,${b}/7/*,${PUB}))`, 3));
    assert.equal(new ChainDerivation(wallet, 1).path(4), '1/4,7/4,', 'the plain key has no path');
  });

  it('Dogecoin: sh(multi) and sh(sortedmulti) only; wsh and sh(wsh) need segwit', () => {
    const tpub = 'tpubDDwf2gdFxFahr9RUtDQCuZmsx34CfdZ7RALAirwC2FGeLBzW1TDiEpqFeRdxLdZD7rfsbZHYwSaT6CLM3TAcYRw6xfRv4U6KCQt4Zuhvjkz';
    const dogeTest = getNetworkParams('DOGETEST');
    assert.equal(parseWalletDescriptor(dogeTest, `sh(sortedmulti(1,${tpub}/<0;1>/*,${PUB}))`).policy.form, 'sh(sortedmulti)');
    refused(dogeTest, `wsh(sortedmulti(1,${tpub}/<0;1>/*,${PUB}))`, /Dogecoin Testnet has no segwit: wsh\(sortedmulti\)\(\) cannot pay to it/);
    refused(DOGE, `sh(wsh(multi(1,${PUB})))`, /Dogecoin has no segwit: sh\(wsh\(multi\)\)/);
  });
});

describe('BIP385 addr() and raw(), and combo()', () => {
  it('the valid vectors; the invalid ones and nesting are refused', () => {
    for (const hex of ['deadbeef', BARE_1_OF_2, 'a9149a4d9901d6af519b2a23d4a2f51650fcba87ce7b87']) assert.deepEqual(scripts(BTC, `raw(${hex})`), [hex]);
    assert.deepEqual(scripts(BTC, 'addr(3PUNyaW7M55oKWJ3kDukwk9bsKvryra15j)'), ['a914eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee87']);
    assert.match(parseWalletDescriptor(BTC, 'raw(DEADBEEF)').descriptor, /^raw\(deadbeef\)#/);
    assert.match(parseWalletDescriptor(BTC, 'addr(BC1QCR8TE4KR609GCAWUTMRZA0J4XV80JY8Z306FYU)').descriptor, /^addr\(bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu\)#/);
    refused(BTC, 'raw(asdf)', /raw\(\): the script must be hex/);
    refused(BTC, 'addr(asdf)', /addr\(\): not a valid Bitcoin address/);
    refused(BTC, 'sh(raw(deadbeef))', /sh\(\) takes .* not raw\(\)/);
    refused(BTC, 'wsh(raw(deadbeef))', /wsh\(\) takes multi\(\) or sortedmulti\(\) here, not raw\(\)/);
    refused(BTC, 'sh(addr(3PUNyaW7M55oKWJ3kDukwk9bsKvryra15j))', /not addr\(\)/);
    refused(BTC, 'wsh(addr(3PUNyaW7M55oKWJ3kDukwk9bsKvryra15j))', /not addr\(\)/);
    refused(BTCTEST, 'addr(3PUNyaW7M55oKWJ3kDukwk9bsKvryra15j)', /belongs to another network/);
  });

  it('combo(KEY): P2PK, P2PKH, P2WPKH, P2SH-P2WPKH of a compressed key; P2PK and P2PKH of an uncompressed one or without segwit', () => {
    assert.deepEqual(scripts(BTC, `combo(${PUB})`, 4), [
      `21${PUB}ac`, '76a9149a1c78a507689f6f54b847ad1cef1e614ee23f1e88ac', '00149a1c78a507689f6f54b847ad1cef1e614ee23f1e', 'a91484ab21b1b2fd065d4504ff693d832434b6108d7b87',
    ]);
    assert.equal(parseWalletDescriptor(BTC, `combo(${UNCOMPRESSED})`).width, 2);
    assert.deepEqual(scripts(BTC, `combo(${UNCOMPRESSED})`, 2), [`41${UNCOMPRESSED}ac`, '76a914b5bd079c4d57cc7fc28ecf8213a6b791625b818388ac']);
    assert.equal(parseWalletDescriptor(DOGE, `combo(${PUB})`).width, 2);
    refused(BTC, `sh(combo(${PUB}))`, /not combo\(\)/);
  });
});

describe('mutated descriptors', () => {
  it('5,000 seeded mutations: every refusal is an InvalidArgumentError, every acceptance reads back from its normalised form', () => {
    const a = 'tpubDDwf2gdFxFahr9RUtDQCuZmsx34CfdZ7RALAirwC2FGeLBzW1TDiEpqFeRdxLdZD7rfsbZHYwSaT6CLM3TAcYRw6xfRv4U6KCQt4Zuhvjkz';
    const seeds = [
      `sh(wsh(sortedmulti(2,[4ba43603/48h/1h/0h/1h]${a}/<0;1>/*,${PUB},[8dfc9b34]${a}/7/*)))`,
      `multi(1,${PUB},${UNCOMPRESSED})`, `combo(${a}/<0;1>/*)`, 'addr(2N2YRBWpbQPyvkAHHCiYMAsW7MixttgGkuP)', 'raw(deadbeef)',
    ];
    const alphabet = "0123456789()[],'/*abcdefgh<>;#hpub";
    let state = 50;
    const next = (n: number): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % n;
    };
    let accepted = 0;
    for (let i = 0; i < 5_000; i++) {
      let text = seeds[next(seeds.length)]!;
      for (let edits = 1 + next(3); edits > 0; edits--) {
        const at = next(text.length + 1);
        const c = alphabet[next(alphabet.length)]!;
        const kind = next(3);
        text = kind === 0 ? text.slice(0, at) + c + text.slice(at) : kind === 1 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + c + text.slice(at + 1);
      }
      try {
        const wallet = parseWalletDescriptor(BTCTEST, text);
        accepted++;
        assert.equal(parseWalletDescriptor(BTCTEST, wallet.descriptor).descriptor, wallet.descriptor, text);
        new ChainDerivation(wallet, 0).script(0);
      } catch (error) {
        assert.ok(error instanceof InvalidArgumentError, `${text}: ${String(error)}`);
      }
    }
    assert.ok(accepted > 0, 'some mutations are still descriptors');
  });
});
