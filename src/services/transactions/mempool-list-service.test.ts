import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { getNetworkParams } from '../../chains/addressing.js';
import type { MempoolTxSummary } from '../../core/store/chain-reads.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import { MempoolListService } from './mempool-list-service.js';
import { NetworkRegistry } from '../shared/network-registry.js';
import { SyncGate } from '../shared/sync-gate.js';
import { SyncStatusCache } from '../shared/sync-status-cache.js';

const tx = (n: number): MempoolTxSummary => ({ txid: n.toString(16).padStart(64, '0'), fee: 1000n, size: 200, vsize: 150, weight: 600, seenAt: 1_000 + n });

test('the newest mempool txs come newest first; one list read serves requests only while the mempool is unchanged', async () => {
  let entries = [tx(1), tx(3), tx(2)];
  let listReads = 0;
  const reader = {
    getMempoolInfo: async () => ({ count: entries.length, bytes: entries.length * 200, vbytes: entries.length * 150 }),
    getMempoolEntries: async () => (listReads++, [...entries]),
  } as unknown as NetworkReader;
  let now = 0;
  const networks = new Map([['LTCTEST' as const, { params: getNetworkParams('LTCTEST'), reader }]]);
  // A network that is ready (no stored sync status): the gate lets every read through.
  const gate = new SyncGate(new SyncStatusCache({ syncStatus: async () => null }), () => 0);
  const service = new MempoolListService(new NetworkRegistry(networks, gate), () => now);
  assert.deepEqual((await service.newest('LTCTEST', 2)).txs.map((t) => t.seenAt), [1_003, 1_002]);
  await service.newest('LTCTEST', 2);
  assert.equal(listReads, 1, 'unchanged mempool: no second list read');
  entries = [...entries, tx(4)];
  const next = await service.newest('LTCTEST', 2);
  assert.deepEqual([next.count, next.txs[0]?.seenAt, listReads], [4, 1_004, 2], 'a new tx is listed at once, even within the two seconds');
  now += 2_001;
  await service.newest('LTCTEST', 2);
  assert.equal(listReads, 3, 'older than two seconds: read again');
});
