import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidArgumentError } from '../../core/domain/errors.js';
import { getNetworkParams } from '../networks.js';
import { parseWalletDescriptor } from './wallet-descriptor.js';
import { isWif, replaceWifKeys } from './wif.js';

/** The secret 1 as WIF: Bitcoin uncompressed and compressed, testnet compressed, Litecoin compressed. */
const WIFS = ['5HpHagT65TZzG1PH3CSu63k8DbpvD8s5ip4nEB3kEsreAnchuDf', 'KwDiBf89QgGbjEhKnhXJuH7LrciVrZi3qYjgd9M7rFU73sVHnoWn',
  'cMahea7zqjxrtgAbB7LSGbcQUr1uX1ojuat9jZodMN87JcbXMTcA', 'T33ydQRKp4FCW5LCLLUB7deioUMoveiwekdwUwyfRDeGZm76aUjV'];

describe('WIF private keys', () => {
  it('are recognised on every network, and nothing else of that length is', () => {
    for (const wif of WIFS) assert.equal(isWif(wif), true, wif);
    assert.equal(isWif(`${WIFS[0]!.slice(0, -1)}g`), false, 'a wrong checksum');
    assert.equal(isWif('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'), false, 'an address');
  });

  it('are refused by name as a wallet, plain or inside a descriptor, whatever the network asked', () => {
    for (const network of [getNetworkParams('LTCTEST', 'test'), getNetworkParams('BTC', 'main')]) {
      for (const wif of WIFS) {
        for (const text of [wif, `wpkh(${wif}/0/*)`, `pkh(${wif})`]) {
          assert.throws(() => parseWalletDescriptor(network, text), (e: unknown) => e instanceof InvalidArgumentError && /private key \(WIF\)/.test(e.message), text);
        }
      }
    }
  });

  it('are found inside longer base58 runs (URL-encoded descriptors) and replaced whole', () => {
    const text = `wpkh%28${WIFS[1]}%2F0%2F*%29 x${WIFS[3]}y`;
    assert.equal(replaceWifKeys(text, () => '#'), 'wpkh%28#%2F0%2F*%29 x#y');
  });
});
