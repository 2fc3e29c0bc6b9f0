/**
 * Issue 27 point 6 against `outpoint serve` (SQLite): what the public sees and what other local users can read.
 * - /ready and /ready/{NETWORK} on the API port name a refused node by code (`connection_refused`), never by the
 *   error's text (which named the node's internal address and port); the log keeps the text for the operator;
 * - a data dir that does not exist yet is made 0700, the store and its -wal and -shm files 0600 (whatever the
 *   umask); files an operator loosened are left alone and named in a warning at start with the command to fix them;
 * - no Strict-Transport-Security over plain HTTP (https.test.ts checks it is sent with TLS).
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../helpers/free-port.js';
import { waitFor } from '../helpers/wait-for.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

let dir: string;
let config: string;
let closedPort: number;
let serve: ServeProcess | null = null;

const data = () => join(dir, 'data');
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

before(async () => {
  // The usual umask: what the old code's files got (0755 directories, 0644 files).
  process.umask(0o022);
  dir = mkdtempSync(join(tmpdir(), 'outpoint-exposure-'));
  closedPort = await freePort();
  const port = await freePort();
  config = join(dir, 'outpoint.toml');
  writeFileSync(config, `data_dir = "${data()}"
[http]
host = "127.0.0.1"
port = ${port}
rate_limit_per_second = 0
[health]
check_interval_ms = 200
timeout_ms = 2000
[networks.LTCTEST]
chain = "regtest"
rpc_url = "http://outpoint:secret@127.0.0.1:${closedPort}/"
poll_ms = 100
`);
  serve = await startServe(config, { port, readyPath: '/health', env: { OUTPOINT_MARKET_SOURCES: '' } });
});

after(async () => {
  await serve?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function get(path: string): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(`${serve!.url}${path}`);
  return { status: response.status, text: await response.text(), headers: response.headers };
}

describe('what the public sees of outpoint serve, and what other users of the machine can read', () => {
  it('readiness names a refused node by code, not by its address; the log keeps the detail', async () => {
    let last = await get('/ready/LTCTEST');
    // The index is empty, so the network is in its initial sync (issue 33's fresh start); the refused node is its
    // node_error code (docs/operations.md: `initial_sync` with `node_error` set).
    await waitFor(async () => ((last = await get('/ready/LTCTEST')), JSON.parse(last.text).node_error === 'connection_refused'), 20_000, `node_error: ${last.text}`, 100);
    const body = JSON.parse(last.text) as Record<string, unknown>;
    assert.equal(last.status, 503);
    assert.equal(body['reason'], 'initial_sync');
    const all = await get('/ready');
    assert.equal(all.status, 503);
    assert.equal(JSON.parse(all.text).reason, 'no_network_ready');
    for (const text of [last.text, all.text]) {
      for (const secret of ['127.0.0.1', String(closedPort), 'ECONNREFUSED', 'outpoint:secret', 'fetch failed']) assert.ok(!text.includes(secret), `${secret} in ${text}`);
    }
    await waitFor(() => serve!.log.join('').includes('ECONNREFUSED'), 10_000, 'the detail in the log');
    assert.equal(last.headers.get('strict-transport-security'), null, 'no HSTS over plain HTTP');
  });

  it('the data dir it made is 0700, the store and its -wal and -shm 0600', () => {
    assert.equal(mode(data()), '700');
    for (const file of ['outpoint.db', 'outpoint.db-wal', 'outpoint.db-shm']) assert.equal(mode(join(data(), file)), '600', file);
    assert.ok(!serve!.log.join('').includes('readable by other users'), 'nothing to warn about');
  });

  it('files loosened by hand are left as they are and named at start, with the fix', async () => {
    await serve!.stop();
    chmodSync(join(data(), 'outpoint.db'), 0o644);
    chmodSync(data(), 0o755);
    serve = await startServe(config, { port: serve!.port, readyPath: '/health', env: { OUTPOINT_MARKET_SOURCES: '' } });
    await waitFor(() => serve!.log.join('').includes('readable by other users'), 10_000, 'the warning');
    const line = serve!.log.join('').split('\n').find((l) => l.includes('readable by other users'))!;
    assert.ok(line.includes(`chmod go-rwx '${join(data(), 'outpoint.db')}'`), line);
    assert.ok(line.includes(`chmod go-rwx '${data()}'`), line);
    assert.equal(mode(join(data(), 'outpoint.db')), '644', 'not changed behind the operator\'s back');
  });
});
