/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are checked field by field */
/**
 * v3 fee_estimates against litecoind regtest on SQLite and PostgreSQL: a mempool with a spread of fee rates, then more
 * than a block of txs paying more. The levels never rise with the target, never go below the node's relay fee, and
 * `fastest` rises once the next block is full of higher-fee txs. Its own node: the mempool it fills would change what
 * the other v3 files read.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { encodeSegwitAddress } from '../../src/chains/address/segwit-address.js';
import { formatCoins, parseCoins } from '../../src/core/index.js';
import { syncAll } from '../helpers/indexer-harness.js';
import { waitFor } from '../helpers/regtest-node.js';
import { callBoth, params, startV3Chain, type V3Chain } from './v3-fixture.js';

const URL = '/api/v3/fee_estimates/LTCTEST';
/**
 * Fillers at 100 litoshi/vB: 170 of 200 outputs (about 6,200 vbytes each) are more than a block (1,000,000 vbytes), and
 * 60 of one output close the gaps they leave, so that no tx of the earlier spread (about 141 vbytes) still fits in the
 * next block (greedy packing leaves a gap smaller than the smallest tx it still has).
 */
const FILLERS: readonly { count: number; outputs: number }[] = [{ count: 170, outputs: 200 }, { count: 60, outputs: 1 }];
let chain: V3Chain;
let relay: number;

const get = async (): Promise<any> => {
  const reply = await callBoth(chain.apps, URL, chain.key);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.data;
};

/**
 * Waits until both engines' apps answer alike and `done` holds. Each app projects the mempool on its own, when its
 * own pass comes: right after a change one may have projected it and the other not yet (seen on a loaded machine),
 * which is a moment, not a disagreement. An answer that still differs when the time is up fails with both bodies.
 */
async function settledEstimates(done: (d: any) => boolean, what: string): Promise<any> {
  let last: any;
  let disagreement: Error | null = null;
  try {
    await waitFor(async () => {
      try {
        last = await get();
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith('engines disagree')) throw error;
        disagreement = error;
        return false;
      }
      disagreement = null;
      return done(last);
    }, 60_000, what, 200);
  } catch (error) {
    throw disagreement ?? error;
  }
  return last;
}

function assertLevels(d: any): void {
  assert.ok(d.fastest >= d.half_hour && d.half_hour >= d.hour && d.hour >= d.economy && d.economy >= d.minimum, `monotone: ${JSON.stringify(d)}`);
  assert.ok(d.minimum >= relay, `minimum ${d.minimum} ≥ relay fee ${relay}`);
  assert.equal(d.unit, 'litoshi/vB');
  assert.deepEqual(d.targets, { fastest: 1, half_hour: 12, hour: 24, economy: 576 });
}

/** Wallet sends at `litoshiPerVbyte` (settxfee takes coins per kvB). */
async function sendAt(litoshiPerVbyte: number, call: { method: string; params: unknown[] }): Promise<void> {
  const replies = await chain.node.wallet.batch([{ method: 'settxfee', params: [formatCoins(BigInt(litoshiPerVbyte * 1000))] }, call]);
  for (const r of replies) if (r instanceof Error) throw r;
}

before(async () => {
  chain = await startV3Chain();
  relay = Number(parseCoins(String((await chain.node.rpc.call<any>('getnetworkinfo', [], { exactDecimals: true })).relayfee))) / 1000;
  await syncAll(chain.indexed);
});

after(async () => {
  await chain?.stop();
});

describe('v3 fee_estimates on a regtest mempool', () => {
  let before: any;

  it('a mempool with a spread of rates, less than a block: every level at the entry rate, monotone, at least the relay fee', async () => {
    for (const rate of [10, 15, 20, 25, 30, 35]) await sendAt(rate, { method: 'sendtoaddress', params: [await chain.node.newAddress(), '0.01'] });
    await syncAll(chain.indexed);
    before = await settledEstimates((d) => d.updated_at > 0, 'a projection');
    assertLevels(before);
    assert.equal(before.fastest, before.minimum, 'the next block has room for everything: entering the mempool is enough');
    assert.equal(before.node_estimates, false, 'regtest has no fee history: projection and relay fee only');
  });

  it('more than a block of txs paying more: fastest rises to the lowest rate of the full next block, half an hour stays at the entry rate', async () => {
    for (const { count, outputs } of FILLERS) {
      const fan = Object.fromEntries(Array.from({ length: outputs }, () => [encodeSegwitAddress(params.bech32Hrp!, 0, randomBytes(20)), '0.0001']));
      for (let i = 0; i < count; i++) await sendAt(100, { method: 'sendmany', params: ['', fan] });
    }
    await syncAll(chain.indexed);
    const after = await settledEstimates((d) => d.fastest > before.fastest, 'fastest to rise');
    assertLevels(after);
    // Greedy packing may still slip one small tx of the spread into the last gap: the rate to beat is the lowest in the block.
    assert.ok(after.fastest >= 10 && after.fastest <= 100, `fastest ${after.fastest}: the lowest rate in a full next block`);
    assert.equal(after.half_hour, after.minimum, 'the second block has room to spare');
    const info = (await callBoth(chain.apps, '/api/v3/network_info/LTCTEST', chain.key)).body.data.mempool.blocks;
    assert.equal(after.fastest, info[0].min_fee_rate_possible, 'the rate network_info says enters the next block');
    assert.equal(info[0].median_fee_rate, 100, 'the next block is the fillers');
  });
});
