import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getNetworkParams } from '../../chains/networks.js';
import { blendRates, projectedRate, roundUp } from './fee-blend.js';
import { feeTargets } from './fee-targets.js';

const none = { fastest: null, halfHour: null, hour: null, economy: null };

describe('fee levels', () => {
  it('targets follow the block interval: 3, 12 and 30 blocks to half an hour; a day is capped by estimatesmartfee', () => {
    assert.deepEqual(feeTargets(getNetworkParams('BTC')), { fastest: 1, halfHour: 3, hour: 6, economy: 144 });
    assert.deepEqual(feeTargets(getNetworkParams('LTC')), { fastest: 1, halfHour: 12, hour: 24, economy: 576 });
    assert.deepEqual(feeTargets(getNetworkParams('DOGE')), { fastest: 1, halfHour: 30, hour: 60, economy: 1_008 });
  });

  it('the projection: the lowest entry rate of the blocks within the target; past the filled blocks, the mempool minimum', () => {
    const projection = { entryRates: [40, 25, 31, 12], minFeeRate: 1 };
    assert.deepEqual([1, 2, 3, 4, 5, 144].map((t) => projectedRate(projection, t)), [40, 25, 25, 12, 1, 1]);
  });

  it('without the node: the projection, floored at the minimum, never rising with the target', () => {
    const rates = blendRates({ fastest: 40, halfHour: 25, hour: 0.5, economy: 30 }, none, 1);
    assert.deepEqual(rates, { fastest: 40, halfHour: 30, hour: 30, economy: 30, minimum: 1 });
  });

  it('the node lifts a level half way towards its estimate and never lowers one', () => {
    const rates = blendRates({ fastest: 10, halfHour: 5, hour: 2, economy: 1 }, { fastest: 30, halfHour: 1, hour: null, economy: 3 }, 1);
    assert.deepEqual(rates, { fastest: 20, halfHour: 5, hour: 2, economy: 2, minimum: 1 });
  });

  it('rates below 1 keep their decimals and are rounded up, never below the exact figure', () => {
    assert.equal(roundUp(0.1), 0.1);
    assert.equal(roundUp(0.101), 0.11);
    assert.equal(roundUp(12.3456), 12.35);
    assert.deepEqual(blendRates({ fastest: 0.1, halfHour: 0.1, hour: 0.1, economy: 0.1 }, none, 0.1), { fastest: 0.1, halfHour: 0.1, hour: 0.1, economy: 0.1, minimum: 0.1 });
  });
});
