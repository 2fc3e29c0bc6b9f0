/**
 * Issue 27: seeded random and mutated input at every entry of `outpoint serve` (HTTP paths, query strings, headers,
 * bodies; websocket upgrade targets, Host and handshake headers; websocket frames; P2P messages to its listener;
 * Electrum sessions over TCP, issue 49),
 * bounded for CI (OUTPOINT_TEST_FUZZ_CASES, default 1,500; seed OUTPOINT_TEST_FUZZ_SEED, default 27). The process must
 * stay up, answer get_info after every batch, log no error and never answer 5xx. The long run: `npm run bench:fuzz`
 * (docs/benchmarks.md). A failure prints the seed, the case and its input; OUTPOINT_TEST_FUZZ_CASE=n replays one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runFuzz } from '../helpers/fuzz/fuzz-run.js';
import { startFuzzTarget, type FuzzTarget } from '../helpers/fuzz/fuzz-target.js';

const CASES = Number(process.env['OUTPOINT_TEST_FUZZ_CASES'] ?? 1_500);
const SEED = Number(process.env['OUTPOINT_TEST_FUZZ_SEED'] ?? 27);
const ONLY = process.env['OUTPOINT_TEST_FUZZ_CASE'];
let target: FuzzTarget;

before(async () => {
  target = await startFuzzTarget();
});

after(async () => {
  await target?.close();
});

describe('fuzz: every entry of outpoint serve', () => {
  it(`${ONLY === undefined ? `${CASES} cases` : `case ${ONLY}`} of seed ${SEED}: no crash, no 5xx, no error logged, get_info after every batch`, async () => {
    const report = await runFuzz(target, { seed: SEED, cases: CASES, ...(ONLY === undefined ? {} : { only: Number(ONLY) }) });
    console.log(`fuzz: ${JSON.stringify(report)}`);
    if (ONLY !== undefined) return;
    assert.ok(report.byKind.http > CASES * 0.4 && report.byKind.frames > CASES * 0.1 && report.byKind.upgrade > CASES * 0.05, 'every kind ran');
    assert.ok(report.byKind.p2p > 0 && report.p2pSessions > 0, 'P2P messages reached the listener');
    assert.ok(report.byKind.electrum > CASES * 0.05, 'Electrum sessions ran');
  });
});
