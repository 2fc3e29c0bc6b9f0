import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Transaction } from '../../core/domain/chain-types.js';
import { getNetworkParams } from '../networks.js';
import { blockMiner } from './block-miner.js';
import { parseBlock } from './block-parser.js';

const FIXTURES = new URL('../../../../shared/fixtures/blocks/', import.meta.url);

function coinbaseOf(name: string): { network: string; coinbase: Transaction } {
  const fixture = JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8')) as { network: string; hex: string };
  const params = getNetworkParams(fixture.network as 'BTC');
  return { network: fixture.network, coinbase: parseBlock(Buffer.from(fixture.hex, 'hex'), params.features).txs[0]! };
}

void test('miner address and tag of real coinbases (addresses as the fixtures decode the first paying output)', () => {
  const cases: [string, string | null, string | null][] = [
    // litecoinpool.org's short slashed tag: the rule v3 used before (runs of 6) missed it, the indexer's (runs of 4) kept it.
    ['LTC-2383209', 'LTCPodha2LAxSyBGsGfkWcmKDEB8cWrqLU', '/LP/'],
    ['BTC-542213', '1Nh7uHdvY6fNwtQtM1G5EZAFPLC33B59rB', 'Mined by AntPool9; ['],
    // "/P2SH/" is the node's BIP16 flag, not a name: dropped, the pool's own tag stays.
    ['DOGE-12345', 'DHE6HfE8Ckv9e4AhUcJV8JTgxAw4mCmYVH', '/stratumPool/'],
    ['LTC-277645', 'LWSKjnpsDgLjpuUX69udeLXuAe28DeCgSE', null],
    // The first output is the zero-value witness commitment: the first output that pays an address counts.
    ['LTCTEST-2215586', 'Qh4heUtdB62TVjnBq5qitbCSuK7aSWqqyB', '/LTCFoundation/'],
    // 2010: paid to a bare public key, shown as that key's P2PKH address.
    ['BTC-2010-0000000000013b8a', '1CsT3ba2VsrsxwQsmwZoFVQ4fE86A1Uj4W', null],
  ];
  for (const [name, address, tag] of cases) {
    const { network, coinbase } = coinbaseOf(name);
    assert.deepEqual(blockMiner(getNetworkParams(network as 'BTC'), coinbase), { address, tag }, name);
  }
});

void test('random extranonce bytes are not a tag; a coinbase paying no address has no miner address', () => {
  const { coinbase } = coinbaseOf('LTC-1');
  const noisy: Transaction = {
    ...coinbase,
    // height push, then printable-looking extranonce bytes "a#Q~x" (5) and "/ok" (unclosed slash)
    inputs: [{ ...coinbase.inputs[0]!, scriptSig: Uint8Array.from([0x03, 0x01, 0x02, 0x03, 0x05, ...Buffer.from('a#Q~x'), 0x00, ...Buffer.from('/ok')]) }],
    outputs: [{ value: 5_000_000_000n, script: Uint8Array.from([0x6a, 0x01, 0x01]) }],
  };
  assert.deepEqual(blockMiner(getNetworkParams('LTC'), noisy), { address: null, tag: null });
});
