/** The depth rule of wallet hooks (issue 50): the first confirmation and the hook's target each once, reorgs, the end. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REORG_WINDOW, walletWatchDecision } from './webhook-watches.js';

const watch = (target: number, delivered: number) => ({ hookId: 1, txid: 'a'.repeat(64), target, delivered });
const step = (target: number, delivered: number, depth: number): string => {
  const d = walletWatchDecision(watch(target, delivered), depth);
  return `${d.deliver ? (d.reorg ? 'reorg' : 'deliver') : 'quiet'}:${d.next}${d.drop ? ':drop' : ''}`;
};

describe('wallet watches', () => {
  it('target 1: the confirmation once, then quiet until the watch ends', () => {
    assert.equal(step(1, 0, 0), 'quiet:0');
    assert.equal(step(1, 0, 1), 'deliver:1');
    assert.equal(step(1, 1, 2), 'quiet:2');
    assert.equal(step(1, 2, 1 + REORG_WINDOW), 'quiet:7:drop');
  });

  it('target 6: the first confirmation and the sixth, each once; skipping from 0 to 7 is one delivery', () => {
    assert.equal(step(6, 0, 1), 'deliver:1');
    assert.equal(step(6, 1, 5), 'quiet:5');
    assert.equal(step(6, 5, 6), 'deliver:6');
    assert.equal(step(6, 6, 7), 'quiet:7');
    assert.equal(step(6, 0, 7), 'deliver:7');
  });

  it('a reorg below a depth delivered is delivered; the confirmation again after it', () => {
    assert.equal(step(1, 1, 0), 'reorg:0');
    assert.equal(step(6, 6, 5), 'reorg:5');
    assert.equal(step(6, 5, 4), 'quiet:4', 'still past the first confirmation, below the target as delivered');
    assert.equal(step(1, 0, 1), 'deliver:1');
    assert.equal(step(1, 1, -1), 'reorg:-1', 'gone from the chain and the mempool');
  });

  it('a tx that left the mempool unconfirmed is no longer followed', () => {
    assert.equal(step(1, 0, -1), 'quiet:0:drop');
  });
});
