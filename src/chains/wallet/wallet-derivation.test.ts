/**
 * Derivation vectors, each from its source: BIP32 test vectors 1 (public derivation) and 5 (invalid keys), BIP49,
 * BIP84 and BIP86 (bitcoin/bips), SLIP-132's test vectors (satoshilabs/slips), BIP381 and BIP382 descriptor scripts,
 * and Trust Wallet Core's Litecoin and Dogecoin tests (trustwallet/wallet-core: swift/Tests/Blockchains/
 * LitecoinTests.swift testDeriveFromLtub/testDeriveFromMtub, tests/chains/Litecoin/TWLitecoinTests.cpp
 * DeriveFromZpub, swift/Tests/Blockchains/DogeTests.swift testDeriveFromDpub).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidArgumentError } from '../../core/domain/errors.js';
import { scriptToAddress } from '../address/address.js';
import { toHex } from '../hash.js';
import type { NetworkParams } from '../network-params.js';
import { getNetworkParams } from '../networks.js';
import { decodeExtendedKey, encodeExtendedKey } from './extended-key.js';
import { keyScript } from './descriptor-scripts.js';
import { ChainDerivation } from './wallet-derivation.js';
import { parseWalletDescriptor } from './wallet-descriptor.js';

const BTC = getNetworkParams('BTC');
const BTCTEST = getNetworkParams('BTCTEST');
const LTC = getNetworkParams('LTC');
const DOGE = getNetworkParams('DOGE');

/** The addresses of chain `chain` at `indexes` of a wallet given as text. */
function addresses(params: NetworkParams, text: string, chain: number, indexes: readonly number[]): string[] {
  const derivation = new ChainDerivation(parseWalletDescriptor(params, text), chain);
  return indexes.map((i) => scriptToAddress(params, derivation.script(i))!);
}

function scripts(params: NetworkParams, text: string, chain: number, count: number): string[] {
  const derivation = new ChainDerivation(parseWalletDescriptor(params, text), chain);
  return Array.from({ length: count }, (_, i) => toHex(derivation.script(i)));
}

describe('BIP32 test vectors', () => {
  it('vector 1: public derivation from m/0H/1/2H gives the published m/0H/1/2H/2 and m/0H/1/2H/2/1000000000 keys', () => {
    const parent = decodeExtendedKey(BTC, 'xpub6D4BDPcP2GT577Vvch3R8wDkScZWzQzMMUm3PWbmWvVJrZwQY4VUNgqFJPMM3No2dFDFGTsxxpG5uJh7n7epu4trkrX7x7DogT5Uv6fcLW5');
    const child = parent.node.deriveChild(2);
    assert.equal(child.publicExtendedKey, 'xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV');
    assert.equal(child.deriveChild(1_000_000_000).publicExtendedKey,
      'xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy');
  });

  it('vector 5: invalid extended public keys are refused', () => {
    for (const key of [
      'xpub661MyMwAqRbcEYS8w7XLSVeEsBXy79zSzH1J8vCdxAZningWLdN3zgtU6LBpB85b3D2yc8sfvZU521AAwdZafEz7mnzBBsz4wKY5fTtTQBm', // pubkey version / prvkey
      'xpub661MyMwAqRbcEYS8w7XLSVeEsBXy79zSzH1J8vCdxAZningWLdN3zgtU6Txnt3siSujt9RCVYsx4qHZGc62TG4McvMGcAUjeuwZdduYEvFn', // prefix 04
      'xpub661MyMwAqRbcEYS8w7XLSVeEsBXy79zSzH1J8vCdxAZningWLdN3zgtU6N8ZMMXctdiCjxTNq964yKkwrkBJJwpzZS4HS2fxvyYUA4q2Xe4', // prefix 01
      'xpub661no6RGEX3uJkY4bNnPcw4URcQTrSibUZ4NqJEw5eBkv7ovTwgiT91XX27VbEXGENhYRCf7hyEbWrR3FewATdCEebj6znwMfQkhRYHRLpJ', // depth 0, parent fp
      'xpub661MyMwAuDcm6CRQ5N4qiHKrJ39Xe1R1NyfouMKTTWcguwVcfrZJaNvhpebzGerh7gucBvzEQWRugZDuDXjNDRmXzSZe4c7mnTK97pTvGS8', // depth 0, index
      'DMwo58pR1QLEFihHiXPVykYB6fJmsTeHvyTp7hRThAtCX8CvYzgPcn8XnmdfHGMQzT7ayAmfo4z3gY5KfbrZWZ6St24UVf2Qgo6oujFktLHdHY4', // unknown version
      'xpub661MyMwAqRbcEYS8w7XLSVeEsBXy79zSzH1J8vCdxAZningWLdN3zgtU6Q5JXayek4PRsn35jii4veMimro1xefsM58PgBMrvdYre8QyULY', // invalid point
      'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHL', // checksum
    ]) {
      assert.throws(() => decodeExtendedKey(BTC, key), InvalidArgumentError, key);
    }
  });
});

describe('SLIP-132 and the BIP44/49/84/86 account vectors', () => {
  it('SLIP-132: xpub (pkh), ypub (sh(wpkh)) and zpub (wpkh) each give their first address', () => {
    assert.deepEqual(addresses(BTC, 'xpub6BosfCnifzxcFwrSzQiqu2DBVTshkCXacvNsWGYJVVhhawA7d4R5WSWGFNbi8Aw6ZRc1brxMyWMzG3DSSSSoekkudhUd9yLb6qx39T9nMdj', 0, [0]),
      ['1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA']);
    assert.deepEqual(addresses(BTC, 'ypub6Ww3ibxVfGzLrAH1PNcjyAWenMTbbAosGNB6VvmSEgytSER9azLDWCxoJwW7Ke7icmizBMXrzBx9979FfaHxHcrArf3zbeJJJUZPf663zsP', 0, [0]),
      ['37VucYSaXLCAsxYyAPfbSi9eh4iEcbShgf']);
  });

  it('BIP84: zpub receive 0 and 1, change 0', () => {
    const zpub = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
    assert.deepEqual(addresses(BTC, zpub, 0, [0, 1]), ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g']);
    assert.deepEqual(addresses(BTC, zpub, 1, [0]), ['bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el']);
  });

  it('BIP49: upub (testnet) receive 0', () => {
    const upub = 'upub5EFU65HtV5TeiSHmZZm7FUffBGy8UKeqp7vw43jYbvZPpoVsgU93oac7Wk3u6moKegAEWtGNF8DehrnHtv21XXEMYRUocHqguyjknFHYfgY';
    assert.deepEqual(addresses(BTCTEST, upub, 0, [0]), ['2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD2']);
  });

  it('BIP86: tr(xpub) receive 0 and 1, change 0 (key-path taproot output keys)', () => {
    const tr = 'tr(xpub6BgBgsespWvERF3LHQu6CnqdvfEvtMcQjYrcRzx53QJjSxarj2afYWcLteoGVky7D3UKDP9QyrLprQ3VCECoY49yfdDEHGCtMMj92pReUsQ/<0;1>/*)';
    assert.deepEqual(addresses(BTC, tr, 0, [0, 1]), [
      'bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr',
      'bc1p4qhjn9zdvkux4e44uhx8tc55attvtyu358kutcqkudyccelu0was9fqzwh',
    ]);
    assert.deepEqual(addresses(BTC, tr, 1, [0]), ['bc1p3qkhfews2uk44qtvauqyr2ttdsw7svhkl9nkm9s9c3x4ax5h60wqwruhk7']);
  });
});

describe('Litecoin and Dogecoin key spellings (Trust Wallet Core tests)', () => {
  it('Ltub (pkh) receive 2 and 9', () => {
    const ltub = 'Ltub2Ye6FtTv7U4zzHDL6iMfcE3cj5BHJjkBXQj1deZEAgSBrHB5oM191hYTF8BC34r7vRDGng59yfP6FH4m3nttc3TLDg944G8QK7d5NnygCRu';
    assert.deepEqual(addresses(LTC, ltub, 0, [2, 9]), ['LdJvSS8gcRSN1WbSEj6srV8dKzGcybHGKt', 'Laj4byUKgW3wuou4G3XCAPWqzVc3SdEpQk']);
  });

  it('Mtub (sh(wpkh)) receive 3 and 10', () => {
    const mtub = 'Mtub2sZjeBCxVccvybLHSD1i3Aw38QvCTDadaPyXbSkRRX1RQm3mxtfsbQU5M3PdCSP4xAFHCceEQ3FmQF69Du2wbcmebt3CaWAGALBSe8c4Gvw';
    assert.deepEqual(addresses(LTC, mtub, 0, [3, 10]), ['MVr2vvjyaTzmfX3LFZcg5KZ7Cc36pgAWcy', 'MTgkF6T5h92QDmpFsBk4fJeYt3dx5ERQtD']);
  });

  it('zpub on Litecoin (wpkh) receive 4 and 11', () => {
    const zpub = 'zpub6sCFp8chadVDXVt7GRmQFpq8B7W8wMLdFDto1hXu2jLZtvkFhRnwScXARNfrGSeyhR8DBLJnaUUkBbkmB2GwUYkecEAMUcbUpFQV4v7PXcs';
    assert.deepEqual(addresses(LTC, zpub, 0, [4, 11]), ['ltc1qcgnevr9rp7aazy62m4gen0tfzlssa52axwytt6', 'ltc1qy072y8968nzp6mz3j292h8lp72d678fcmms6vl']);
  });

  it('dgub (pkh) receive 8', () => {
    const dgub = 'dgub8rjvUmFc6cqR6NRBEj2FBZCHUDUrykPyv24Vea6bCsPex5PzNFrRtr4KN37XgwuVzzC2MikJRW2Ddcp99Ehsqp2iaU4eerNCJVruKxz6Gci';
    assert.deepEqual(addresses(DOGE, dgub, 0, [8]), ['DLrjRgrVqbbpGrSQUtSYgsiWWMvRz5skQE']);
  });

  it('a SLIP-132 spelling normalises to the network\'s own key version with the same public key', () => {
    const ltub = decodeExtendedKey(LTC, 'Ltub2Ye6FtTv7U4zzHDL6iMfcE3cj5BHJjkBXQj1deZEAgSBrHB5oM191hYTF8BC34r7vRDGng59yfP6FH4m3nttc3TLDg944G8QK7d5NnygCRu');
    const xpub = encodeExtendedKey(ltub.node, LTC.extendedKeys[0]!);
    assert.match(xpub, /^xpub/);
    assert.deepEqual(decodeExtendedKey(LTC, xpub).node.publicKey, ltub.node.publicKey);
    assert.match(parseWalletDescriptor(LTC, 'Ltub2Ye6FtTv7U4zzHDL6iMfcE3cj5BHJjkBXQj1deZEAgSBrHB5oM191hYTF8BC34r7vRDGng59yfP6FH4m3nttc3TLDg944G8QK7d5NnygCRu').descriptor,
      /^pkh\(xpub[1-9A-HJ-NP-Za-km-z]+\/<0;1>\/\*\)#[a-z0-9]{8}$/);
  });
});

describe('BIP381 and BIP382 descriptor scripts', () => {
  it('BIP382: wpkh([ffffffff/13\']xpub…/1/2/*) gives its three listed scripts', () => {
    const text = "wpkh([ffffffff/13']xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH/1/2/*)";
    assert.deepEqual(scripts(BTC, text, 0, 3), [
      '0014326b2249e3a25d5dc60935f044ee835d090ba859', '0014af0bd98abc2f2cae66e36896a39ffe2d32984fb7', '00141fa798efd1cbf95cebf912c031b8a4a6e9fb9f27',
    ]);
  });

  it('BIP381: pkh of xpub69H7F5dQ…/0 and pk-free key scripts per kind', () => {
    const key = decodeExtendedKey(BTC, 'xpub69H7F5dQzmVd3vPuLKtcXJziMEQByuDidnX3YdwgtNsecY5HRGtAAQC5mXTt4dsv9RzyjgDjAQs9VGVV6ydYCHnprc9vvaA5YtqWyL6hyds');
    assert.equal(toHex(keyScript('pkh', key.node.deriveChild(0).publicKey!)), '76a914ebdc90806a9c4356c1c88e42216611e1cb4c1c1788ac');
    const pub = Buffer.from('03a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd', 'hex');
    assert.equal(toHex(keyScript('pkh', pub)), '76a9149a1c78a507689f6f54b847ad1cef1e614ee23f1e88ac', 'BIP381 pkh(03a34b…)');
    assert.equal(toHex(keyScript('wpkh', pub)), '00149a1c78a507689f6f54b847ad1cef1e614ee23f1e', 'BIP382 wpkh(03a34b…)');
    assert.equal(toHex(keyScript('tr', pub)), '512077aab6e066f8a7419c5ab714c12c67d25007ed55a43cadcacb4d7a970a093f11', 'BIP386 tr(a34b…)');
  });

  it('BIP389: <1;3>/2/* expands into the chains 1/2/* and 3/2/*', () => {
    const multi = "wpkh([ffffffff/13h]xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH/<1;3>/2/*)";
    const single = (path: string) => `wpkh([ffffffff/13h]xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH/${path})`;
    assert.deepEqual(scripts(BTC, multi, 0, 3), scripts(BTC, single('1/2/*'), 0, 3));
    assert.deepEqual(scripts(BTC, multi, 1, 3), scripts(BTC, single('3/2/*'), 0, 3));
    const parsed = parseWalletDescriptor(BTC, multi);
    assert.deepEqual(parsed.chains, [[[1, 2]], [[3, 2]]]);
    assert.equal(new ChainDerivation(parsed, 1).path(7), '3/2/7');
  });
});
