import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { getNetworkParams } from '../../chains/addressing.js';
import { parseBlockHeader } from '../../chains/parsing.js';
import type { BlockRecord } from '../../core/store/chain-reads.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import { AuxPowParentService } from './auxpow-parent-service.js';
import type { NetworkContext } from '../shared/network-registry.js';

interface Fixture {
  hash: string;
  hex: string;
  expected: { auxpow: { chain_id: number; parent_header_sha256d_hash: string; parent_header_time: number } };
}
const fixture = (name: string): Fixture => JSON.parse(readFileSync(new URL(`../../../../shared/fixtures/blocks/${name}.json`, import.meta.url), 'utf8')) as Fixture;

function record(hex: string): BlockRecord {
  const header = parseBlockHeader(Buffer.from(hex, 'hex').subarray(0, 80));
  return { hash: header.hash, version: header.version } as BlockRecord;
}

test('the parent of a merge-mined Dogecoin block is read from the node once and remembered', async () => {
  const block = fixture('DOGE-371337');
  const calls: string[][] = [];
  const service = new AuxPowParentService(new Map([['DOGE', { getRawBlocks: async (hashes: readonly string[]) => (calls.push([...hashes]), [Buffer.from(block.hex, 'hex')]) }]]));
  const network: NetworkContext = { id: 'DOGE', params: getNetworkParams('DOGE'), reader: {} as NetworkReader, sightings: null, rawTxs: null };
  const parent = await service.parentOf(network, record(block.hex));
  assert.deepEqual(parent && { hash: parent.hash, time: parent.time, chainId: parent.chainId }, {
    hash: block.expected.auxpow.parent_header_sha256d_hash,
    time: block.expected.auxpow.parent_header_time,
    chainId: block.expected.auxpow.chain_id,
  });
  assert.deepEqual(await service.parentOf(network, record(block.hex)), parent);
  assert.deepEqual(calls, [[block.hash]], 'one node read');
});

test('blocks without AuxPoW, and networks without a node source, have no parent', async () => {
  const plain = fixture('DOGE-12345');
  const service = new AuxPowParentService(new Map());
  const doge: NetworkContext = { id: 'DOGE', params: getNetworkParams('DOGE'), reader: {} as NetworkReader, sightings: null, rawTxs: null };
  assert.equal(await service.parentOf(doge, record(plain.hex)), null);
  assert.equal(await service.parentOf(doge, record(fixture('DOGE-371337').hex)), null);
  const ltc: NetworkContext = { id: 'LTC', params: getNetworkParams('LTC'), reader: {} as NetworkReader, sightings: null, rawTxs: null };
  assert.equal(await service.parentOf(ltc, record(fixture('LTC-277645').hex)), null);
});

test("the parent coinbase's pool tag follows chains' miner-tag rule (protocol flags such as /P2SH/ left out)", async () => {
  const doge: NetworkContext = { id: 'DOGE', params: getNetworkParams('DOGE'), reader: {} as NetworkReader, sightings: null, rawTxs: null };
  const tags: Record<string, string> = {};
  for (const name of ['DOGE-567890', 'DOGE-2264125', 'DOGE-371337']) {
    const block = fixture(name);
    const service = new AuxPowParentService(new Map([['DOGE', { getRawBlocks: async () => [Buffer.from(block.hex, 'hex')] }]]));
    tags[name] = (await service.parentOf(doge, record(block.hex)))!.coinbaseTag;
  }
  assert.deepEqual(tags, { 'DOGE-567890': '/nodeStratum/', 'DOGE-2264125': 'Mined by a15888234220', 'DOGE-371337': '' });
});
