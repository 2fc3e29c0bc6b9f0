import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { HeaderProofs } from './header-proofs.js';
import { branchAndRoot } from './merkle.js';

const leaves = Array.from({ length: 300 }, (_, i) => createHash('sha256').update(`block ${i}`).digest());
const hex = (hashes: readonly Uint8Array[]): string[] => hashes.map((h) => Buffer.from(h).toString('hex'));

describe('header proofs', () => {
  it('equal the whole tree over heights 0..cp_height, with chunk roots kept between proofs', async () => {
    let reads = 0;
    const proofs = new HeaderProofs(async (from, to) => {
      reads++;
      return leaves.slice(from, to + 1);
    }, 3);
    for (const [height, cp] of [[0, 0], [5, 7], [7, 8], [0, 8], [8, 8], [13, 16], [16, 16], [100, 255], [255, 255], [3, 299], [296, 299], [290, 295], [64, 199]]) {
      const expected = branchAndRoot(leaves.slice(0, cp! + 1), height!);
      const got = await proofs.branchAndRoot(height!, cp!);
      assert.deepEqual(hex(got.branch), hex(expected.branch), `branch of ${height} to ${cp}`);
      assert.deepEqual(hex([got.root]), hex([expected.root]), `root to ${cp}`);
    }
    const before = reads;
    await proofs.branchAndRoot(100, 255);
    assert.equal(reads - before, 1, 'only the own chunk is read again');
  });

  it('forgets the chunks a reorg changed', async () => {
    const chain = [...leaves];
    const proofs = new HeaderProofs(async (from, to) => chain.slice(from, to + 1), 3);
    await proofs.branchAndRoot(0, 200);
    chain[150] = createHash('sha256').update('other block').digest();
    proofs.invalidateFrom(150);
    const expected = branchAndRoot(chain.slice(0, 201), 0);
    assert.deepEqual(hex([(await proofs.branchAndRoot(0, 200)).root]), hex([expected.root]));
  });
});
