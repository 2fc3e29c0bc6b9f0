import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PassSignals } from './pass-signals.js';

describe('PassSignals', () => {
  it('a tip signal makes the next pass look at the blocks; mempool changes alone do not', () => {
    const signals = new PassSignals();
    assert.deepEqual(signals.take(), { blocks: true }, 'the first pass looks at the blocks');
    signals.changed();
    assert.equal(signals.pending, true);
    assert.deepEqual(signals.take(), { blocks: false });
    assert.equal(signals.pending, false);
    signals.tip();
    assert.deepEqual(signals.take(), { blocks: true });
    signals.lookAtBlocks();
    assert.equal(signals.pending, false, 'looking at the blocks later is not a reason to run now');
    assert.deepEqual(signals.take(), { blocks: true });
  });

  it('a sleep ended by a signal keeps its kind; one that ran out (the idle resync) looks at the blocks', async () => {
    const signals = new PassSignals();
    signals.take();
    const woken = signals.sleep(60_000);
    signals.changed();
    await woken;
    assert.deepEqual(signals.take(), { blocks: false });
    await signals.sleep(5);
    assert.deepEqual(signals.take(), { blocks: true });
    const interrupted = signals.sleep(60_000);
    signals.interrupt();
    await interrupted;
  });
});
