import { test } from 'node:test';
import { blockFixtures, fixtureFeatures } from '../../../test/helpers/block-fixtures.js';
import assert from 'node:assert/strict';
import { ByteReader } from '../bytes/byte-reader.js';
import { toHex } from '../hash.js';
import { readAuxPow } from './auxpow.js';
import { parseBlock } from './block-parser.js';
import { serializeAuxPow, serializeBlock, serializeBlockHeader } from './block-serializer.js';



const fixtures = blockFixtures<{ network: string; hex: string }>().map(({ file, data }) => ({ file, ...data }));

test('every real non-MWEB fixture block serializes back to its exact bytes (AuxPoW included)', () => {
  let auxpowBlocks = 0;
  let checked = 0;
  for (const f of fixtures) {
    const block = parseBlock(Buffer.from(f.hex, 'hex'), fixtureFeatures(f.network));
    if (block.mweb !== null) {
      assert.throws(() => serializeBlock(block), /MWEB/, f.file);
      continue;
    }
    assert.equal(toHex(serializeBlock(block)), f.hex, f.file);
    assert.equal(toHex(serializeBlockHeader(block.header)), toHex(block.header.raw), `${f.file} header`);
    if (block.auxpow) auxpowBlocks++;
    checked++;
  }
  assert.ok(checked >= 15, `checked ${checked} blocks`);
  assert.ok(auxpowBlocks >= 3, `AuxPoW blocks among them: ${auxpowBlocks}`);
});

test('serializeAuxPow is the inverse of readAuxPow on real merge-mined blocks', () => {
  for (const f of fixtures.filter((x) => x.network.startsWith('DOGE'))) {
    const bytes = Buffer.from(f.hex, 'hex');
    const block = parseBlock(bytes, fixtureFeatures(f.network));
    if (!block.auxpow) continue;
    const aux = serializeAuxPow(block.auxpow);
    assert.equal(toHex(aux), toHex(bytes.subarray(80, 80 + aux.length)), f.file);
    const reread = readAuxPow(new ByteReader(aux));
    assert.deepEqual(reread.chainBranch, block.auxpow.chainBranch);
    assert.equal(reread.parentHeader.hash, block.auxpow.parentHeader.hash);
  }
});

test('a version bit without a payload (or the reverse) is refused: it would not parse back', () => {
  const doge = fixtures.find((f) => f.network === 'DOGE' && parseBlock(Buffer.from(f.hex, 'hex'), fixtureFeatures('DOGE')).auxpow !== null)!;
  const block = parseBlock(Buffer.from(doge.hex, 'hex'), fixtureFeatures('DOGE'));
  assert.throws(() => serializeBlock({ ...block, auxpow: null }), /disagree/);
  assert.throws(() => serializeBlock({ header: { ...block.header, version: block.header.version & ~0x100 }, auxpow: block.auxpow, txs: block.txs }), /disagree/);
});
