/**
 * Issue 27 point 7 with the CLI as operators run it, on a snapshot of a real litecoind -regtest index: a snapshot is
 * checked against the chain it claims before anything is committed, and the command says what it checked and what
 * it took on trust.
 * - an honest snapshot loads and the output names the checks;
 * - rows edited with their digests recomputed load nothing: an address credited with 84M LTC in its script totals,
 *   an output's value raised together with its script's totals (consistent, but not the raw tx's), a block header;
 * - `--skip-chain-check` loads such a file on its digests alone and says every row was taken on trust;
 * - a gzip bomb whose first row claims 2 GiB is refused at once, in little memory.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { SnapshotHeader } from '../../src/store/common/dump/snapshot-export.js';
import { snapshotTables } from '../../src/store/common/dump/snapshot-tables.js';
import { openSqliteDatabase } from '../../src/store/sqlite/connection/sqlite-binding.js';
import { readManifest } from '../helpers/dump-manifest.js';
import { CliConfigs, runCli } from '../helpers/outpoint-cli.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { httpJson, startServe } from '../helpers/serve-process.js';
import { rewriteSnapshot, writeGzipBomb, type RowEdit } from '../helpers/snapshot-forgery.js';

const REPO = new URL('../..', import.meta.url).pathname;
const LTC = 100_000_000n;
let node: RegtestNode;
const configs = new CliConfigs();
let file: string;
/** The script bytes of an address paid before the snapshot, and its key in the snapshot. */
let script: Buffer;

before(async () => {
  node = await startLitecoind({ funded: true });
  const paid = await node.newAddress('bech32');
  script = Buffer.from((await node.rpc.call<{ scriptPubKey: string }>('getaddressinfo', [paid])).scriptPubKey, 'hex');
  for (const type of ['legacy', 'p2sh-segwit'] as const) await node.send(await node.newAddress(type), '0.7');
  await node.mine(1);
  // Paid last, so no later payment of the wallet spends it: its output stays unspent for the forgery below.
  await node.send(paid, '1.5');
  await node.mine(1);
  const config = configs.write(`sqlite:${configs.path('source.db')}`, node.rpcUrl);
  const serve = await startServe(config);
  try {
    const height = await node.rpc.call<number>('getblockcount');
    await waitFor(async () => ((await httpJson(serve.port, '/api/v2/get_info/LTCTEST')).body.data as { blocks?: number }).blocks === height, 60_000, 'indexed');
  } finally {
    await serve.stop();
  }
  file = configs.path('ltctest.snapshot');
  const exported = await runCli(['snapshot', 'export', '--network', 'LTCTEST', file, '--config', config]);
  assert.equal(exported.code, 0, exported.stderr);
});

after(async () => {
  await node?.stop();
  configs.cleanup();
});

function chainIsEmpty(path: string): boolean {
  const db = openSqliteDatabase(path, { readonly: true });
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM tips').get() as { n: bigint }).n) === 0 &&
      Number((db.prepare('SELECT count(*) AS n FROM scripts_ltctest').get() as { n: bigint }).n) === 0;
  } finally {
    db.close();
  }
}

async function importInto(name: string, snapshot: string, ...flags: string[]) {
  const store = configs.path(`${name}.db`);
  return { store, result: await runCli(['snapshot', 'import', snapshot, ...flags, '--config', configs.write(`sqlite:${store}`, node.rpcUrl)]) };
}

/** Edits the row of the paid script's key (scripts) and its unspent output (outputs) by the given functions. */
function forgery(kind: 'totals' | 'output' | 'header', keyOf: () => bigint): RowEdit {
  const raise = 84_000_000n * LTC;
  return (table, row, names) => {
    const at = (name: string) => names.indexOf(name);
    const out = [...row];
    if (table === 'scripts' && kind !== 'header' && out[at('key')] === keyOf()) out[at('received')] = (out[at('received')] as bigint) + raise;
    if (table === 'outputs' && kind === 'output' && out[at('script')] === keyOf() && out[at('spent_by')] === null) out[at('value')] = (out[at('value')] as bigint) + raise;
    if (table === 'blocks' && kind === 'header' && out[at('height')] === 3n) out[at('time')] = (out[at('time')] as bigint) + 1n;
    return out;
  };
}

describe('snapshot import checks the chain a snapshot claims', () => {
  it('loads an honest snapshot and says what it checked and what it took on trust', async () => {
    const { result } = await importInto('honest', file);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /\nchecked: digests; \d+ block headers and their chain to the node's tip; the merkle roots of \d+ txs; \d+ raw txs against their txids, outputs and spends; the totals and counts of \d+ scripts against the outputs and history\n/);
    assert.match(result.stdout, /\ntaken on trust: which txs each history row names \(only their counts per script\); first-seen times\n/);
    assert.match(result.stdout, /Import snapshots only from a source you trust/);
    assert.doesNotMatch(result.stdout, /digests verified/);
  });

  it('refuses rows edited with recomputed digests: 84M LTC in a script\'s totals, an output raised with its totals, a block header', async () => {
    // The paid script's key: read from the honest snapshot's scripts table.
    let key = -1n;
    await rewriteSnapshot(file, configs.path('scan.snapshot'), (table, row, names) => {
      if (table === 'scripts' && Buffer.from(row[names.indexOf('script')] as Buffer).equals(script)) key = row[names.indexOf('key')] as bigint;
      return row;
    });
    assert.notEqual(key, -1n, 'the paid script is in the snapshot');
    const expected: Record<string, RegExp> = {
      totals: /script key \d+: received \d+ and sent \d+ are stored, its outputs add up to \d+ and \d+/,
      output: /output [0-9a-f]{64}:\d+: its value is not its raw tx's/,
      header: /block 3 [0-9a-f]{64}: its header does not hash to it/,
    };
    for (const kind of ['totals', 'output', 'header'] as const) {
      const forged = configs.path(`${kind}.snapshot`);
      await rewriteSnapshot(file, forged, forgery(kind, () => key));
      assert.deepEqual((await readManifest(forged)).tables.length, 6, 'well-formed, digests matching');
      const { store, result } = await importInto(kind, forged);
      assert.notEqual(result.code, 0, `${kind}: ${result.stdout}`);
      assert.match(result.stderr, /does not match the chain it claims to hold/, kind);
      assert.match(result.stderr, expected[kind]!, kind);
      assert.ok(chainIsEmpty(store), `${kind}: nothing was loaded`);
    }
    // --skip-chain-check (for a snapshot the operator exported) loads on the digests alone, and says so.
    const { result } = await importInto('skipped', configs.path('totals.snapshot'), '--skip-chain-check');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /\nchecked: digests; the tip against the node's \(--skip-chain-check: the rows were not checked against the chain\)\ntaken on trust: every row/);
  });

  it('refuses a gzip bomb (a first row claiming 2 GiB) at once and in little memory', async () => {
    const header = (await readManifest(file)).header as SnapshotHeader;
    const bomb = configs.path('bomb.snapshot');
    await writeGzipBomb(bomb, header, snapshotTables('LTCTEST')[0]!);
    const config = configs.write(`sqlite:${configs.path('bomb.db')}`, node.rpcUrl);
    const started = Date.now();
    // GNU time reports the peak resident memory; 60 s is far beyond what a refusal takes (a reader that buffers the
    // claimed row copies gigabytes over and over and is killed here).
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile('/usr/bin/time', ['-f', 'maxrss_kb=%M', process.execPath, 'bin/outpoint.js', 'snapshot', 'import', bomb, '--no-node-check', '--config', config],
        { cwd: REPO, env: { ...process.env, OUTPOINT_MARKET_SOURCES: '' }, timeout: 60_000, killSignal: 'SIGKILL' },
        (error, _stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr }));
    });
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /oversized row in blocks_ltctest: 2147483647 bytes claimed, at most 16777216/);
    assert.ok(Date.now() - started < 30_000, `took ${Date.now() - started} ms`);
    const peak = Number(/maxrss_kb=(\d+)/.exec(run.stderr)![1]) * 1024;
    assert.ok(peak < 400 * 1024 * 1024, `peak RSS ${(peak / 1048576).toFixed(0)} MiB`);
  });
});

