/**
 * `outpoint serve` as operators run it (a child process, config from a TOML file) following a real
 * bitcoind over ZMQ: it keeps up with new blocks and the mempool, indexes taproot (bech32m) payments,
 * and records a BIP125 replacement as a double spend.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { addressToScript } from '../../src/chains/addressing.js';
import { getNetworkParams } from '../../src/chains/networks.js';
import type { NetworkStore } from '../../src/core/index.js';
import { assertAddressesMatchNode } from '../helpers/node-oracle.js';
import { startBitcoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines, type TestStore } from '../helpers/store-engines.js';

const params = getNetworkParams('BTCTEST', 'regtest');
let node: RegtestNode;
let engines: StoreEngines;
let target: TestStore;
let store: NetworkStore;
let serve: ChildProcess;
let serveLog = '';

before(async () => {
  node = await startBitcoind({ funded: true });
  engines = new StoreEngines();
  target = await engines.create('sqlite');
  store = target.store.network('BTCTEST');
  const config = join(node.datadir, 'outpoint.toml');
  writeFileSync(
    config,
    `data_dir = "${join(node.datadir, 'outpoint')}"
[store]
url = "${target.url}"
[http]
port = 0
[market]
sources = []
[networks.BTCTEST]
chain = "regtest"
rpc_url = "${node.rpcUrl}"
zmq_url = "${node.zmqUrl}"
`,
  );
  serve = spawn(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', 'serve', '--config', config], {
    cwd: new URL('../..', import.meta.url).pathname,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  serve.stderr?.on('data', (chunk: Buffer) => (serveLog += chunk.toString()));
});

after(async () => {
  if (serve && serve.exitCode === null) {
    const exited = new Promise((resolve) => serve.once('exit', resolve));
    serve.kill('SIGTERM');
    await exited;
  }
  await node?.stop();
  await engines?.close();
});

async function indexedTip(): Promise<string | null> {
  return (await store.getTip())?.hash ?? null;
}

describe('outpoint serve following bitcoind over ZMQ', () => {
  it('catches up with the initial chain', async () => {
    const best = await node.rpc.call<string>('getbestblockhash');
    await waitFor(async () => (await indexedTip()) === best, 30_000, `initial sync (log: ${serveLog.slice(-400)})`);
    // The catch-up ends with one summary line naming where its time went (operators read it to find the bottleneck).
    // stderr is not a terminal: one JSON object per line.
    await waitFor(async () => serveLog.includes('"message":"sync finished"'), 5_000, 'sync summary logged');
    const summary = serveLog.split('\n').find((line) => line.includes('"message":"sync finished"'))!;
    const fields = JSON.parse(summary) as Record<string, unknown>;
    const height = await node.rpc.call<number>('getblockcount');
    assert.equal(fields['network'], 'BTCTEST');
    assert.equal(Number(fields['height']), height);
    assert.equal(Number(fields['blocks']), height + 1);
    assert.ok(Number(fields['txs']) >= height + 1, summary);
    for (const key of ['seconds', 'waitingSeconds', 'writingSeconds']) assert.ok(Number(fields[key]) >= 0, `${key} in ${summary}`);
    assert.ok(Number(fields['waitingSeconds']) + Number(fields['writingSeconds']) <= Number(fields['seconds']) + 0.02, summary);
  });

  // Bounds well under the indexer's 5 s safety-net resync, so only ZMQ notifications can meet them, with room
  // for a CI machine running two test files at once (typically tens of milliseconds; docs/node.md).
  it('new blocks and mempool txs are indexed promptly through ZMQ', async () => {
    const addresses = [await node.newAddress('bech32m'), await node.newAddress('bech32'), await node.newAddress('p2sh-segwit'), await node.newAddress('legacy')];
    const started = Date.now();
    const txids: string[] = [];
    for (const address of addresses) txids.push(await node.send(address, '0.25'));
    await waitFor(async () => (await store.getMempoolTxids()).length >= txids.length, 5_000, 'mempool txs indexed');
    const mempoolLatency = Date.now() - started;
    assert.ok(mempoolLatency < 3_000, `mempool indexed in ${mempoolLatency} ms`);
    const taproot = await store.getAddressTotals(addressToScript(params, addresses[0]!));
    assert.equal(taproot.unconfirmedReceived, 25_000_000n, 'bech32m (taproot) payment indexed');
    const [hash] = await node.mine(1);
    const mined = Date.now();
    await waitFor(async () => (await indexedTip()) === hash, 5_000, 'block indexed');
    const blockLatency = Date.now() - mined;
    assert.ok(blockLatency < 3_000, `block indexed in ${blockLatency} ms`);
    assert.deepEqual(await store.getMempoolTxids(), []);
    await assertAddressesMatchNode(node, params, store, addresses, 'after the block');
  });

  it('a BIP125 replacement marks the replaced tx as double-spent', async () => {
    const address = await node.newAddress('bech32m');
    const original = await node.wallet.call<string>('sendtoaddress', [address, '0.1', '', '', false, true]);
    await waitFor(async () => (await store.getTransaction(original))?.status === 'mempool', 5_000, 'original indexed');
    const { txid: replacement } = await node.wallet.call<{ txid: string }>('bumpfee', [original]);
    await waitFor(async () => (await store.getTransaction(replacement))?.status === 'mempool', 5_000, 'replacement indexed');
    await waitFor(async () => (await store.getTransaction(original))?.status === 'removed', 5_000, 'original removed');
    const old = await store.getTransaction(original);
    assert.equal(old?.doubleSpent, true);
    assert.deepEqual(await store.getMempoolTxids(), [replacement]);
  });

  it('SIGTERM stops serve cleanly', async () => {
    const exited = new Promise<number | null>((resolve) => serve.once('exit', (code) => resolve(code)));
    serve.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});
