/** The fee service's choices about the node: its coin's version rule, answers for another horizon, a node that is down. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getNetworkParams } from '../../chains/networks.js';
import type { FeeEstimateSource, NodeFeeEstimates } from '../../core/sources/fee-source.js';
import { silentLogger } from '../../core/infrastructure/logger.js';
import type { MempoolSource } from '../../core/sources/mempool-source.js';
import type { NetworkId } from '../../core/domain/network.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import { MempoolProjector } from '../network/mempool-projector.js';
import { NetworkRegistry } from '../shared/network-registry.js';
import { SyncGate } from '../shared/sync-gate.js';
import { SyncStatusCache } from '../shared/sync-status-cache.js';
import { FeeService } from './fee-service.js';

const DOGE = getNetworkParams('DOGETEST', 'regtest');
/** An empty mempool whose entry rate is 100 koinu/vB (Dogecoin Core's 0.001 DOGE/kB). */
const emptyMempool: MempoolSource = { snapshot: async () => ({ entries: [], minFeeRate: 100, takenAt: 1_700_000_000 }) };

function service(node: FeeEstimateSource): FeeService {
  const reader = { getTip: async () => ({ height: 1, hash: 'aa' }) } as unknown as NetworkReader;
  const registry = new NetworkRegistry(new Map([['DOGETEST' as NetworkId, { params: DOGE, reader }]]), new SyncGate(new SyncStatusCache({ syncStatus: async () => null }), () => 0));
  const projector = new MempoolProjector({ networks: registry, sources: new Map([['DOGETEST' as NetworkId, emptyMempool]]), events: null, logger: silentLogger });
  return new FeeService(registry, projector, new Map([['DOGETEST' as NetworkId, node]]), silentLogger);
}

/** A node of `version` estimating 500 koinu/vB for every target (answering for `answeredFor` blocks when given). */
const node = (version: number, answeredFor?: number): FeeEstimateSource => ({
  estimates: async (targets): Promise<NodeFeeEstimates> => ({
    nodeVersion: version, relayFeeRate: 100, estimates: targets.map((target) => ({ target, rate: 500, answeredFor: answeredFor ?? target })),
  }),
});

describe('FeeService and the node', () => {
  it("Dogecoin Core before 1.14.7: its estimates are not used (projection and relay fee only)", async () => {
    const old = await service(node(1_140_600)).estimates('DOGETEST');
    assert.equal(old.nodeEstimates, false);
    assert.deepEqual(old.rates, { fastest: 100, halfHour: 100, hour: 100, economy: 100, minimum: 100 });
    assert.equal(old.unit, 'koinu/vB');
  });

  it('1.14.7 and later: they lift each level half way', async () => {
    const fresh = await service(node(1_140_900)).estimates('DOGETEST');
    assert.equal(fresh.nodeEstimates, true);
    assert.deepEqual(fresh.rates, { fastest: 300, halfHour: 300, hour: 300, economy: 300, minimum: 100 });
  });

  it('an answer for a longer horizon than asked is left out; a node that is down leaves the projection', async () => {
    assert.equal((await service(node(1_140_900, 2_000)).estimates('DOGETEST')).nodeEstimates, false);
    const down = await service({ estimates: () => Promise.reject(new Error('connection refused')) }).estimates('DOGETEST');
    assert.deepEqual([down.nodeEstimates, down.rates.fastest, down.rates.minimum], [false, 100, 100]);
  });
});
