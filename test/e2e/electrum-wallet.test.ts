/**
 * A real wallet on Outpoint's Electrum server (issue 49): Debian's Electrum 4.3.4 in --regtest, --oneserver on our
 * TCP port, driven through its CLI. It restores a key, shows the balance the node gives that key's address, pays
 * through `broadcast` (our blockchain.transaction.broadcast), and shows the payment confirmed after a block: Electrum
 * only counts confirmations once it has verified the tx's merkle branch (get_merkle) against headers it fetched and
 * checked itself (blockchain.block.headers, headers.subscribe).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { createBase58check } from '@scure/base';
import { parseCoins } from '../../src/core/index.js';
import { startElectrumServe, type ElectrumServe } from '../helpers/electrum-serve.js';
import { startBitcoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines, testEngines } from '../helpers/store-engines.js';

const run = promisify(execFile);
const ELECTRUM = process.env['ELECTRUM'] ?? '/usr/bin/electrum';
const base58check = createBase58check((data: Uint8Array) => createHash('sha256').update(data).digest());

let btc: RegtestNode;
let server: ElectrumServe;
let dir: string;
let address: string;
const engines = new StoreEngines();

/** The Electrum CLI against the daemon of `dir` (its own HOME too: nothing is written outside). */
async function electrum(...args: string[]): Promise<unknown> {
  const { stdout } = await run(ELECTRUM, ['--regtest', '-D', dir, ...args], { env: { ...process.env, HOME: dir }, timeout: 120_000 });
  const text = stdout.trim();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

before(async () => {
  btc = await startBitcoind({ funded: true });
  dir = mkdtempSync(join(tmpdir(), 'outpoint-electrum-wallet-'));
  // Served by two Electrum worker processes, as a 2-core machine runs it by default.
  server = await startElectrumServe(btc, (await engines.create(testEngines()[0]!)).url, { electrum: { processes: '2' } });
  // A key of our own (WIF, regtest, compressed): Electrum restores it as a p2wpkh wallet; the node tells its address.
  const wif = base58check.encode(Buffer.concat([Buffer.from([0xef]), randomBytes(32), Buffer.from([0x01])]));
  const { descriptor } = await btc.rpc.call<{ descriptor: string }>('getdescriptorinfo', [`wpkh(${wif})`]);
  address = (await btc.rpc.call<string[]>('deriveaddresses', [descriptor]))[0]!;
  await btc.send(address, '1.5');
  await btc.mine(1);
  await server.caughtUp(btc);
  await electrum('--offline', 'restore', `p2wpkh:${wif}`);
  await electrum('daemon', '-d', '--oneserver', '--server', `127.0.0.1:${server.ports.tcp}:t`);
  await electrum('load_wallet');
});

after(async () => {
  if (dir) await electrum('stop').catch(() => undefined);
  await server?.stop();
  await btc?.stop();
  await engines.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Balance {
  readonly confirmed: string;
  readonly unconfirmed?: string;
}

describe('Electrum 4.3.4 on Outpoint', () => {
  it('shows the balance the node gives the restored key', async () => {
    await waitFor(async () => ((await electrum('getbalance')) as Balance).confirmed === '1.5', 120_000, 'Electrum synced', 500);
    const scan = await btc.rpc.call<{ total_amount: string }>('scantxoutset', ['start', [`addr(${address})`]], { exactDecimals: true });
    assert.equal(parseCoins(((await electrum('getbalance')) as Balance).confirmed), parseCoins(String(scan.total_amount)));
  });

  it('pays through broadcast, and shows the payment confirmed after a block', async () => {
    const to = await btc.newAddress('bech32');
    const tx = String(await electrum('payto', to, '0.4'));
    const txid = String(await electrum('broadcast', tx));
    assert.match(txid, /^[0-9a-f]{64}$/);
    assert.ok(await btc.rpc.call('getmempoolentry', [txid]), 'the node has it');
    await waitFor(async () => ((await electrum('get_tx_status', txid)) as { confirmations: number }).confirmations === 0, 60_000, 'Electrum sees it unconfirmed', 500);
    await btc.mine(1);
    await waitFor(async () => ((await electrum('get_tx_status', txid)) as { confirmations: number }).confirmations === 1, 120_000, 'Electrum verified it in a block', 500);
    const scan = await btc.rpc.call<{ total_amount: string }>('scantxoutset', ['start', [`addr(${address})`]], { exactDecimals: true });
    const balance = (await electrum('getbalance')) as Balance;
    assert.equal(parseCoins(balance.confirmed), parseCoins(String(scan.total_amount)), 'the change, as the node counts it');
    assert.equal(balance.unconfirmed, undefined);
  });
});
