import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError } from '../core/index.js';
import { loadConfig } from './config-loader.js';

function configFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-config-'));
  const file = join(dir, 'outpoint.toml');
  writeFileSync(file, text);
  return file;
}

test('defaults: embedded store in the data dir, port 3000, rate limit 5', () => {
  const config = loadConfig({ env: {} });
  assert.match(config.store.url, /^sqlite:.*data\/outpoint\.db$/);
  assert.equal(config.http.port, 3000);
  assert.equal(config.http.rateLimitPerSecond, 5);
  assert.equal(config.http.publicUrl, 'http://127.0.0.1:3000');
  assert.equal(config.redis.url, null);
  assert.deepEqual(config.networks, []);
  assert.equal(config.realtime.sendThreads, Math.max(1, Math.floor(availableParallelism() / 2)));
});

test('realtime send_threads: set in the file or the environment, 1 to 16', () => {
  assert.equal(loadConfig({ file: configFile('[realtime]\nsend_threads = 3\n'), env: {} }).realtime.sendThreads, 3);
  assert.equal(loadConfig({ env: { OUTPOINT_REALTIME_SEND_THREADS: '2' } }).realtime.sendThreads, 2);
  assert.throws(() => loadConfig({ file: configFile('[realtime]\nsend_threads = 0\n'), env: {} }), /realtime\.send_threads must be between 1 and 16/);
});

test('reads networks with chain defaults from the acronym', () => {
  const file = configFile(`
data_dir = "/tmp/op"
[http]
port = 8080
public_url = "https://explorer.example/"
[networks.LTC]
rpc_url = "http://u:p@127.0.0.1:9332"
[networks.LTCTEST]
chain = "regtest"
rpc_url = "http://127.0.0.1:19443"
rpc_cookie = "/tmp/.cookie"
poll_ms = 100
sync_requests = 16
mempool_removed_keep_hours = 0
`);
  const config = loadConfig({ file, env: {} });
  assert.equal(config.store.url, 'sqlite:/tmp/op/outpoint.db');
  assert.equal(config.http.publicUrl, 'https://explorer.example');
  assert.equal(config.networks.length, 2);
  const [ltc, test] = config.networks;
  assert.equal(ltc!.chain, 'main');
  assert.equal(ltc!.pollMs, 250);
  assert.equal(test!.chain, 'regtest');
  assert.equal(test!.rpcCookie, '/tmp/.cookie');
  assert.equal(test!.pollMs, 100);
  assert.equal(ltc!.syncRequests, 4);
  assert.equal(test!.syncRequests, 16);
  assert.equal(ltc!.mempoolRemovedKeepHours, 72);
  assert.equal(test!.mempoolRemovedKeepHours, 0);
  assert.throws(() => loadConfig({ file: configFile('[networks.LTC]\nrpc_url = "http://x:1"\nmempool_removed_keep_hours = -1\n'), env: {} }), /mempool_removed_keep_hours/);
  assert.throws(() => loadConfig({ file: configFile('[networks.LTC]\nrpc_url = "http://x:1"\nsync_requests = 0\n'), env: {} }), /sync_requests/);
  assert.ok(Object.isFrozen(config.networks[0]));
});

test('unknown keys are errors that name the key', () => {
  assert.throws(() => loadConfig({ file: configFile('[http]\nprot = 1\n'), env: {} }), /unknown key "http\.prot"/);
  assert.throws(() => loadConfig({ file: configFile('colour = "red"\n'), env: {} }), /unknown key "colour"/);
  assert.throws(() => loadConfig({ file: configFile('[networks.XRP]\nrpc_url="http://x"\n'), env: {} }), /unknown network "networks\.XRP"/);
  assert.throws(
    () => loadConfig({ file: configFile('[networks.BTC]\nrpc_url="http://x:1"\nzmq="tcp://x:2"\n'), env: {} }),
    /unknown key "networks\.BTC\.zmq"/,
  );
});

test('environment overrides the file and can add a network', () => {
  const file = configFile('[http]\nport = 8080\n');
  const config = loadConfig({
    file,
    env: {
      OUTPOINT_HTTP_PORT: '9090',
      OUTPOINT_STORE_URL: 'postgres://u:p@127.0.0.1:5432/outpoint',
      OUTPOINT_NETWORKS_BTCTEST_CHAIN: 'regtest',
      OUTPOINT_NETWORKS_BTCTEST_RPC_URL: 'http://u:p@127.0.0.1:18443',
      OUTPOINT_SETUP_TEST_DEPS: '1',
    },
  });
  assert.equal(config.http.port, 9090);
  assert.equal(config.store.url, 'postgres://u:p@127.0.0.1:5432/outpoint');
  assert.equal(config.networks[0]!.id, 'BTCTEST');
  assert.equal(config.networks[0]!.chain, 'regtest');
});

test('invalid values give clear messages', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ['[http]\nport = 70000\n', {}, /http\.port must be between 0 and 65535/],
    ['[http]\nport = "x"\n', {}, /http\.port must be an integer/],
    ['[networks.BTC]\nchain = "test"\nrpc_url = "http://x:1"\n', {}, /BTC is a main network/],
    ['[networks.BTCTEST]\nchain = "mainnet"\nrpc_url = "http://x:1"\n', {}, /must be main, test or regtest/],
    ['[networks.LTC]\npoll_ms = 100\n', {}, /networks\.LTC\.rpc_url is required/],
    ['[store]\nurl = "mysql://x"\n', {}, /store\.url must be sqlite:PATH or postgres/],
    ['', { OUTPOINT_HTTP_PROT: '1' }, /unknown environment variable OUTPOINT_HTTP_PROT/],
    ['not toml [', {}, /is not valid TOML/],
  ];
  for (const [text, env, message] of cases) {
    assert.throws(() => loadConfig({ file: configFile(text), env }), (err: unknown) => err instanceof ConfigError && message.test(err.message));
  }
  assert.throws(() => loadConfig({ file: '/nonexistent/outpoint.toml', env: {} }), /cannot read config file/);
});

test('market: off by default, with polling defaults', () => {
  const { market } = loadConfig({ env: {} });
  assert.deepEqual(market, { sources: [], intervalMs: 15_000, timeoutMs: 5000, maxAgeS: 300, baseUrls: {} });
  assert.ok(Object.isFrozen(market.sources));
});

test('market: sources, timings and per-source base URLs from the file; env overrides them', () => {
  const file = configFile(`
[market]
sources = ["kraken", "bitstamp", "okx"]
interval_ms = 20000
timeout_ms = 3000
max_age_s = 120
kraken_url = "http://127.0.0.1:9999"
`);
  const fromFile = loadConfig({ file, env: {} }).market;
  assert.deepEqual(fromFile.sources, ['kraken', 'bitstamp', 'okx']);
  assert.equal(fromFile.intervalMs, 20_000);
  assert.equal(fromFile.timeoutMs, 3000);
  assert.equal(fromFile.maxAgeS, 120);
  assert.deepEqual(fromFile.baseUrls, { kraken: 'http://127.0.0.1:9999' });
  const fromEnv = loadConfig({
    file,
    env: { OUTPOINT_MARKET_SOURCES: 'binance, coinbase', OUTPOINT_MARKET_COINBASE_URL: 'http://127.0.0.1:9000', OUTPOINT_MARKET_MAX_AGE_S: '600' },
  }).market;
  assert.deepEqual(fromEnv.sources, ['binance', 'coinbase']);
  assert.equal(fromEnv.maxAgeS, 600);
  assert.deepEqual(fromEnv.baseUrls, { kraken: 'http://127.0.0.1:9999', coinbase: 'http://127.0.0.1:9000' });
});

test('market: invalid values and unknown keys are errors', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ['[market]\nsources = ["kraken", "mtgox"]\n', {}, /market\.sources: unknown "mtgox"/],
    ['[market]\nsources = "kraken"\n', { OUTPOINT_MARKET_SOURCES: 'kraken,kraken' }, /market\.sources lists "kraken" twice/],
    ['[market]\nsources = [1]\n', {}, /market\.sources must be a list of strings/],
    ['[market]\ninterval_ms = 10\n', {}, /market\.interval_ms must be between 1000 and 3600000/],
    ['[market]\nsources = ["okx"]\ninterval_ms = 60000\nmax_age_s = 30\n', {}, /max_age_s \(30 s\) must be longer than market\.interval_ms/],
    ['[market]\nkraken_url = "not a url"\n', {}, /market\.kraken_url must be a URL/],
    ['[market]\nmtgox_url = "http://x"\n', {}, /unknown key "market\.mtgox_url"/],
    ['[market.base_urls]\nkraken = "http://x"\n', {}, /unknown key "market\.base_urls"/],
    ['', { OUTPOINT_MARKET_INTERVAL: '1' }, /unknown environment variable OUTPOINT_MARKET_INTERVAL/],
  ];
  for (const [text, env, message] of cases) {
    assert.throws(() => loadConfig({ file: configFile(text), env }), (err: unknown) => err instanceof ConfigError && message.test(err.message), message.source);
  }
});

test('[accounts] and [smtp]: defaults, choices and the secret key format', () => {
  const defaults = loadConfig({ env: {} });
  assert.deepEqual(defaults.accounts, {
    registration: 'invite', defaultPlan: 'free', secretKey: null, keyGraceSeconds: 86_400, sessionIdleHours: 72, sessionMaxDays: 30,
    usageKeepDays: 400, passwordHashConcurrency: 2, signinFailuresPerIp: 30, signinFailuresPerAccount: 10,
  });
  assert.deepEqual(defaults.smtp, { url: null, from: 'Outpoint <outpoint@127.0.0.1>' });
  const file = configFile(`
[http]
public_url = "https://api.example.com"
[accounts]
registration = "open"
default_plan = "trial"
secret_key = "${'AB'.repeat(32)}"
key_grace_seconds = 0
[smtp]
url = "smtp://u:p@127.0.0.1:2525"
`);
  const config = loadConfig({ file, env: { OUTPOINT_ACCOUNTS_SESSION_IDLE_HOURS: '1' } });
  assert.equal(config.accounts.registration, 'open');
  assert.equal(config.accounts.defaultPlan, 'trial');
  assert.equal(config.accounts.secretKey, 'ab'.repeat(32));
  assert.equal(config.accounts.keyGraceSeconds, 0);
  assert.equal(config.accounts.sessionIdleHours, 1);
  assert.deepEqual(config.smtp, { url: 'smtp://u:p@127.0.0.1:2525', from: 'Outpoint <outpoint@api.example.com>' });
  assert.throws(() => loadConfig({ file: configFile('[accounts]\nregistration = "public"\n'), env: {} }), /accounts\.registration must be one of closed, invite, open/);
  assert.throws(() => loadConfig({ file: configFile('[accounts]\nsecret_key = "abc"\n'), env: {} }), /accounts\.secret_key must be 64 hex digits/);
  assert.throws(() => loadConfig({ file: configFile('[accounts]\nusage_keep_days = 30\n'), env: {} }), /usage_keep_days must be between 90/);
  assert.throws(() => loadConfig({ file: configFile('[smtp]\nhost = "x"\n'), env: {} }), /unknown key "smtp\.host"/);
});
