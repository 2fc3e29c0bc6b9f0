/**
 * `outpoint serve` with `[http] tls_cert_file` / `tls_key_file`: REST and the realtime server (wss) on one HTTPS
 * port, with certificates made at test time by a throwaway CA. pusher-js runs in its own process trusting that CA
 * (NODE_EXTRA_CA_CERTS: full verification, as a real client) and receives price_update over wss; SIGHUP re-reads
 * the PEM files for new connections, keeps established ones, and survives a broken pair. The explorer's pages share the port.
 * A second serve with `[http] processes = 2` serves HTTPS from its two workers, and SIGHUP reaches both.
 * Every answer carries Strict-Transport-Security.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FixtureExchange, startFakeExchange, type FakeExchange } from '../helpers/fake-exchange.js';
import { freePort } from '../helpers/free-port.js';
import { waitFor } from '../helpers/regtest-node.js';
import { makeCa, makeServerCertificate, type ServerCertificate } from '../helpers/tls-certificates.js';

const KEY = 'tls-key';
const ROOT = new URL('../..', import.meta.url).pathname;
let dir: string;
let ca: string;
let first: ServerCertificate;
let second: ServerCertificate;
let port: number;
let serve: ChildProcess;
let serveLog = '';
/** `[http] processes = 2` on its own port and copy of the certificate. */
let workers: ChildProcess;
let workersPort: number;
let workersLog = '';
let third: ServerCertificate;
let wss: ChildProcess | null = null;
const wssLines: Record<string, unknown>[] = [];
const kraken = new FixtureExchange('kraken');
let exchange: FakeExchange;

function setBtcUsd(price: string): void {
  (kraken.data as { result: Record<string, { c: string[] }> }).result['XXBTZUSD']!.c[0] = price;
}

type HttpsAnswer = { status: number; body: string; fingerprint: string; headers: IncomingHttpHeaders };

/** One HTTPS request on a fresh connection (so each sees the certificate served now), trusting only the test CA. */
function httpsGet(path: string, options: { method?: string; form?: string; port?: number } = {}): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const headers = options.form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' };
    const req = request({ host: '127.0.0.1', port: options.port ?? port, path, method: options.method ?? 'GET', headers, ca: readFileSync(ca), agent: false }, (res) => {
      const fingerprint = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, fingerprint, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(options.form);
  });
}

/** Installs a certificate pair where the config points (what a renewal does). */
function install(cert: ServerCertificate, name = 'live'): void {
  copyFileSync(cert.certFile, join(dir, `${name}.pem`));
  copyFileSync(cert.keyFile, join(dir, `${name}.key`));
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'outpoint-tls-'));
  ca = makeCa(dir);
  first = makeServerCertificate(dir, 'first', 2);
  second = makeServerCertificate(dir, 'second', 3);
  third = makeServerCertificate(dir, 'third', 4);
  install(first);
  install(first, 'workers');
  setBtcUsd('67012.30000');
  exchange = await startFakeExchange(kraken.reply);
  port = await freePort();
  serve = await startHttps('live', port, `[realtime]
app_key = "${KEY}"
[market]
sources = ["kraken"]
interval_ms = 1000
max_age_s = 60
kraken_url = "${exchange.url}"`, (text) => (serveLog += text));
  workersPort = await freePort();
  workers = await startHttps('workers', workersPort, '[market]\nsources = []', (text) => (workersLog += text), 'processes = 2');
});

/** `outpoint serve` over HTTPS with the pair installed as `name`, once it answers on `at`; its log to `log`. */
async function startHttps(name: string, at: number, sections: string, log: (text: string) => void, http = ''): Promise<ChildProcess> {
  const config = join(dir, `${name}.toml`);
  writeFileSync(config, `data_dir = "${join(dir, `${name}-data`)}"
[http]
port = ${at}
rate_limit_per_second = 0
tls_cert_file = "${join(dir, `${name}.pem`)}"
tls_key_file = "${join(dir, `${name}.key`)}"
${http}
${sections}
`);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', 'serve', '--config', config], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let text = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    log(chunk.toString());
  });
  await waitFor(async () => (await httpsGet('/health', { port: at }).then((r) => r.status === 200, () => false)), 30_000, `serve over HTTPS: ${text.slice(-300)}`, 200);
  return child;
}

after(async () => {
  for (const child of [wss, serve, workers]) {
    if (!child || child.exitCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await exchange?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('HTTPS and wss from the configured PEM files', () => {
  it('serves REST over TLS with the configured certificate, and not over plain HTTP', async () => {
    const info = await httpsGet('/api/v2/get_info/BTC');
    assert.equal(info.status, 200);
    assert.equal(info.fingerprint, first.fingerprint256);
    assert.equal((JSON.parse(info.body) as { status: string }).status, 'success');
    // HSTS on every answer over TLS (issue 27): the API, a 404 and the explorer alike.
    assert.equal(info.headers['strict-transport-security'], 'max-age=31536000');
    assert.equal((await httpsGet('/no/such/page')).headers['strict-transport-security'], 'max-age=31536000');
    assert.equal((await httpsGet('/api/v2/get_tx/BTC/zz')).headers['strict-transport-security'], 'max-age=31536000');
    await waitFor(async () => (await httpsGet('/api/v2/get_price/BTC/USD')).body.includes('"kraken"'), 15_000, 'a price over HTTPS', 200);
    assert.equal((await httpsGet('/api/v2/openapi.json')).status, 200, 'the pages beside the API too');
    const plain = await fetch(`http://127.0.0.1:${port}/api/v2/get_info/BTC`).then((r) => r.status, () => 'refused');
    assert.notEqual(plain, 200, 'a plain HTTP request gets no answer');
    assert.match(serveLog, /http listening.*https:\/\/127\.0\.0\.1/);
  });

  it('serves the explorer pages on the same port: strict CSP, and the theme cookie is Secure', async () => {
    const home = await httpsGet('/');
    assert.equal(home.status, 200);
    assert.match(String(home.headers['content-type']), /^text\/html/);
    assert.match(String(home.headers['content-security-policy']), /connect-src 'self'/, "'self' covers wss on the same host and port");
    const theme = await httpsGet('/theme', { method: 'POST', form: 'theme=dark&back=/' });
    assert.equal(theme.status, 303);
    assert.match(String(theme.headers['set-cookie']), /^outpoint_theme=dark; .*; Secure$/);
  });

  it('pusher-js connects over wss, verifying the certificate, and receives price_update', async () => {
    wss = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/pusher-wss-client.ts', String(port), KEY, 'ticker_btc_usd', 'price_update'], {
      cwd: ROOT,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: ca },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let pending = '';
    wss.stdout?.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) wssLines.push(JSON.parse(line) as Record<string, unknown>);
    });
    await waitFor(() => wssLines.some((l) => l['subscribed'] === 'ticker_btc_usd'), 20_000, `wss subscription: ${JSON.stringify(wssLines)}`, 100);
    assert.ok(wssLines.some((l) => l['state'] === 'connected'));
    setBtcUsd('68000.50000');
    await waitFor(() => wssLines.some((l) => JSON.stringify(l['event'] ?? '').includes('68000.50000000')), 15_000, 'price_update over wss', 100);
  });

  it('SIGHUP re-reads the files: new connections get the new certificate, the open websocket stays, a broken pair is refused', async () => {
    install(second);
    serve.kill('SIGHUP');
    await waitFor(async () => (await httpsGet('/api/v2/get_info/BTC')).fingerprint === second.fingerprint256, 10_000, 'the renewed certificate', 100);
    assert.match(serveLog, /tls: certificate reloaded/);
    setBtcUsd('69000.25000');
    await waitFor(() => wssLines.some((l) => JSON.stringify(l['event'] ?? '').includes('69000.25000000')), 15_000, 'events on the websocket opened before', 100);
    assert.ok(!wssLines.some((l) => l['state'] === 'disconnected' || l['state'] === 'unavailable'), JSON.stringify(wssLines));

    writeFileSync(join(dir, 'live.key'), 'not a key');
    serve.kill('SIGHUP');
    await waitFor(() => /tls: reload failed; still serving the previous certificate/.test(serveLog), 10_000, 'the failed reload logged');
    const still = await httpsGet('/api/v2/get_info/BTC');
    assert.deepEqual([still.status, still.fingerprint], [200, second.fingerprint256]);
    assert.equal(serve.exitCode, null, 'a bad renewal does not stop the service');
  });

  it('with [http] processes = 2: both workers serve HTTPS, and SIGHUP gives every new connection the new certificate', async () => {
    install(third, 'workers');
    workers.kill('SIGHUP');
    // Fresh connections are dealt to both workers in turn: six in a row with the new certificate means each reloaded.
    await waitFor(async () => {
      const answers = await Promise.all(Array.from({ length: 6 }, () => httpsGet('/health', { port: workersPort })));
      return answers.every((a) => a.status === 200 && a.fingerprint === third.fingerprint256);
    }, 10_000, 'the renewed certificate on every worker', 100);
    assert.equal(workersLog.match(/tls: certificate reloaded/g)?.length, 2, 'each worker reloaded once');
    assert.equal(workers.exitCode, null);
  });
});
