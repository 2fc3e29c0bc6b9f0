import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ConfigError } from '../core/index.js';
import { loadConfig } from './config-loader.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function configFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-config-'));
  dirs.push(dir);
  const file = join(dir, 'outpoint.toml');
  writeFileSync(file, text);
  return file;
}

test('defaults: embedded store in the data dir, port 3000, rate limit 5', () => {
  const config = loadConfig({ env: {} });
  assert.match(config.store.url, /^sqlite:.*data\/outpoint\.db$/);
  assert.equal(config.http.port, 3000);
  assert.equal(config.http.rateLimitPerSecond, 5);
  assert.equal(config.http.maxConcurrentPerIp, 0, 'no concurrency limit per IP unless set');
  assert.equal(loadConfig({ env: { OUTPOINT_HTTP_MAX_CONCURRENT_PER_IP: '16' } }).http.maxConcurrentPerIp, 16);
  assert.equal(config.http.publicUrl, 'http://127.0.0.1:3000');
  assert.equal(config.redis.url, null);
  assert.deepEqual(config.networks, []);
  assert.equal(config.realtime.sendThreads, Math.max(1, Math.floor(availableParallelism() / 2)));
});

test('[web] budgets: pages at least 10 a second (one person, several tabs), live refreshes three times that, both off with v2 off', () => {
  assert.deepEqual(loadConfig({ env: {} }).web, { rateLimitPerSecond: 10, liveRateLimitPerSecond: 30 });
  assert.deepEqual(loadConfig({ file: configFile('[http]\nrate_limit_per_second = 20\n'), env: {} }).web, { rateLimitPerSecond: 20, liveRateLimitPerSecond: 60 });
  assert.deepEqual(loadConfig({ file: configFile('[http]\nrate_limit_per_second = 0\n'), env: {} }).web, { rateLimitPerSecond: 0, liveRateLimitPerSecond: 0 });
  assert.deepEqual(loadConfig({ file: configFile('[web]\nrate_limit_per_second = 4\nlive_rate_limit_per_second = 7\n'), env: {} }).web, { rateLimitPerSecond: 4, liveRateLimitPerSecond: 7 });
});

test('[store] raw_txs: "store" by default with a 64 MiB node cache; "node" from the file or the environment', () => {
  const { store } = loadConfig({ env: {} });
  assert.equal(store.rawTxs, 'store');
  assert.equal(store.rawTxCacheBytes, 64 * 1024 * 1024);
  const node = loadConfig({ file: configFile('[store]\nraw_txs = "node"\nraw_tx_cache_mb = 8\n'), env: {} }).store;
  assert.deepEqual([node.rawTxs, node.rawTxCacheBytes], ['node', 8 * 1024 * 1024]);
  assert.equal(loadConfig({ env: { OUTPOINT_STORE_RAW_TXS: 'node' } }).store.rawTxs, 'node');
});

test('[store] sqlite_cache_mb: sized to the index by default (null), from the file, at least 2', () => {
  assert.equal(loadConfig({ env: {} }).store.sqliteCacheMb, null);
  assert.equal(loadConfig({ file: configFile('[store]\nsqlite_cache_mb = 1024\n'), env: {} }).store.sqliteCacheMb, 1024);
  assert.throws(() => loadConfig({ file: configFile('[store]\nsqlite_cache_mb = 1\n'), env: {} }), /sqlite_cache_mb/);
});

test('store read replicas: read_urls need a PostgreSQL store and postgres:// URLs; the lag bound defaults to 2 s', () => {
  assert.deepEqual(loadConfig({ env: {} }).store.readUrls, []);
  assert.equal(loadConfig({ env: {} }).store.maxReplicaLagMs, 2000);
  const pg = '[store]\nurl = "postgres://u:p@db1/outpoint"\n';
  const store = loadConfig({ file: configFile(`${pg}read_urls = ["postgres://u:p@db2/outpoint", "postgresql://u:p@db3/outpoint"]\nmax_replica_lag_ms = 500\n`), env: {} }).store;
  assert.deepEqual([store.readUrls, store.maxReplicaLagMs], [['postgres://u:p@db2/outpoint', 'postgresql://u:p@db3/outpoint'], 500]);
  const fromEnv = loadConfig({ file: configFile(pg), env: { OUTPOINT_STORE_READ_URLS: 'postgres://u:p@db2/o,postgres://u:p@db3/o' } }).store.readUrls;
  assert.deepEqual(fromEnv, ['postgres://u:p@db2/o', 'postgres://u:p@db3/o']);
  assert.throws(() => loadConfig({ file: configFile('[store]\nread_urls = ["postgres://u:p@db2/o"]\n'), env: {} }), /read_urls needs a PostgreSQL store\.url/);
  assert.throws(() => loadConfig({ file: configFile(`${pg}read_urls = ["mysql://u:secret@db2/o"]\n`), env: {} }), (e: Error) => /must be a postgres/.test(e.message) && !e.message.includes('secret'));
});

test('http TLS: both PEM files or neither; the default public URL becomes https', () => {
  assert.equal(loadConfig({ env: {} }).http.tls, null);
  const config = loadConfig({ file: configFile('[http]\nport = 8443\ntls_cert_file = "/etc/op/cert.pem"\ntls_key_file = "/etc/op/key.pem"\n'), env: {} });
  assert.deepEqual(config.http.tls, { certFile: '/etc/op/cert.pem', keyFile: '/etc/op/key.pem' });
  assert.equal(config.http.publicUrl, 'https://127.0.0.1:8443');
  assert.equal(config.http.hstsMaxAgeS, 31_536_000, 'HSTS for a year by default');
  assert.equal(loadConfig({ env: { OUTPOINT_HTTP_HSTS_MAX_AGE_S: '0' } }).http.hstsMaxAgeS, 0);
  assert.throws(() => loadConfig({ env: { OUTPOINT_HTTP_TLS_CERT_FILE: '/etc/op/cert.pem' } }), /tls_cert_file and http\.tls_key_file go together/);
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
    ['[store]\nraw_txs = "disk"\n', {}, /store\.raw_txs must be one of store, node/],
    ['', { OUTPOINT_HTTP_PROT: '1' }, /unknown environment variable OUTPOINT_HTTP_PROT/],
    ['not toml [', {}, /is not valid TOML/],
  ];
  for (const [text, env, message] of cases) {
    assert.throws(() => loadConfig({ file: configFile(text), env }), (err: unknown) => err instanceof ConfigError && message.test(err.message));
  }
  assert.throws(() => loadConfig({ file: '/nonexistent/outpoint.toml', env: {} }), /cannot read config file/);
});

test('market: all seven exchanges by default, with polling defaults; sources = [] turns it off', () => {
  const { market } = loadConfig({ env: {} });
  assert.deepEqual(market, {
    sources: ['binance', 'bitfinex', 'bitstamp', 'coinbase', 'gemini', 'kraken', 'okx'], intervalMs: 15_000, timeoutMs: 5000, maxAgeS: 300, baseUrls: {},
  });
  assert.ok(Object.isFrozen(market.sources));
  assert.deepEqual(loadConfig({ file: configFile('[market]\nsources = []\n'), env: {} }).market.sources, []);
  assert.deepEqual(loadConfig({ env: { OUTPOINT_MARKET_SOURCES: '' } }).market.sources, [], 'an empty variable is the empty list');
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

test('zmq: zmq_url follows the coin node\'s topics (sequence; hashblock + hashtx on DOGE), zmq_topics overrides', () => {
  const file = configFile(`
[networks.BTC]
rpc_url = "http://127.0.0.1:8332"
zmq_url = "tcp://127.0.0.1:28332"
[networks.DOGE]
rpc_url = "http://127.0.0.1:22555"
zmq_url = "tcp://127.0.0.1:28332"
[networks.DOGETEST]
rpc_url = "http://127.0.0.1:44555"
zmq_topics = ["hashblock=tcp://127.0.0.1:30001", "hashtx=tcp://127.0.0.1:30002"]
zmq_reconcile_ms = 500
[networks.LTC]
rpc_url = "http://127.0.0.1:9332"
`);
  const [btc, doge, dogetest, ltc] = loadConfig({ file, env: {} }).networks;
  assert.deepEqual(btc!.zmq, { endpoints: { sequence: 'tcp://127.0.0.1:28332' }, reconcileMs: null });
  assert.deepEqual(doge!.zmq, { endpoints: { hashblock: 'tcp://127.0.0.1:28332', hashtx: 'tcp://127.0.0.1:28332' }, reconcileMs: null });
  assert.deepEqual(dogetest!.zmq, { endpoints: { hashblock: 'tcp://127.0.0.1:30001', hashtx: 'tcp://127.0.0.1:30002' }, reconcileMs: 500 });
  assert.equal(ltc!.zmq, null, 'no ZMQ configured: polling');
  const env = { OUTPOINT_NETWORKS_DOGE_RPC_URL: 'http://127.0.0.1:22555', OUTPOINT_NETWORKS_DOGE_ZMQ_URL: 'tcp://127.0.0.1:1', OUTPOINT_NETWORKS_DOGE_ZMQ_TOPICS: 'hashblock' };
  assert.deepEqual(loadConfig({ env }).networks[0]!.zmq?.endpoints, { hashblock: 'tcp://127.0.0.1:1' });
});

test('zmq_topics mistakes are named', () => {
  const load = (extra: string) => () => loadConfig({ file: configFile(`[networks.DOGE]\nrpc_url = "http://127.0.0.1:22555"\n${extra}`), env: {} });
  assert.throws(load('zmq_topics = ["rawtx"]\nzmq_url = "tcp://x:1"'), /unknown topic "rawtx"/);
  assert.throws(load('zmq_topics = ["hashtx"]'), /hashtx has no endpoint: set networks\.DOGE\.zmq_url/);
  assert.throws(load('zmq_topics = ["sequence", "hashtx"]\nzmq_url = "tcp://x:1"'), /either sequence .* or hashblock\/hashtx/);
  assert.throws(load('zmq_topics = ["hashtx=not a url"]'), /endpoint must be a URL/);
  assert.throws(load('zmq_topics = []\nzmq_url = "tcp://x:1"'), /zmq_topics is empty/);
  assert.throws(load('zmq_url = "tcp://x:1"\nzmq_reconcile_ms = -1'), /zmq_reconcile_ms must be between 0 and 600000/);
});

test('[log], [metrics] and [health]: defaults, environment overrides, and refusals that name the key', () => {
  const config = loadConfig({ env: {} });
  assert.deepEqual(config.log, { level: 'info', format: 'auto', walletKeys: false });
  assert.deepEqual(config.metrics, { listen: null }, '/metrics on the API port by default');
  assert.deepEqual(config.health, { maxLagBlocks: 3, checkIntervalMs: 5000, timeoutMs: 10_000 });
  const set = loadConfig({
    file: configFile('[log]\nlevel = "debug"\nformat = "json"\nwallet_keys = true\n[metrics]\nport = 9464\n[health]\nmax_lag_blocks = 10\n'),
    env: { OUTPOINT_METRICS_HOST: '0.0.0.0', OUTPOINT_HEALTH_TIMEOUT_MS: '3000' },
  });
  assert.deepEqual(set.log, { level: 'debug', format: 'json', walletKeys: true });
  assert.deepEqual(set.metrics, { listen: { host: '0.0.0.0', port: 9464 } });
  assert.deepEqual(set.health, { maxLagBlocks: 10, checkIntervalMs: 5000, timeoutMs: 3000 });
  assert.throws(() => loadConfig({ env: { OUTPOINT_LOG_LEVEL: 'verbose' } }), /log\.level must be one of debug, info, warn, error, got "verbose"/);
  assert.throws(() => loadConfig({ env: { OUTPOINT_METRICS_HOST: '0.0.0.0' } }), /metrics\.host needs metrics\.port/);
  assert.throws(() => loadConfig({ file: configFile('[health]\ncheck_every = 1\n'), env: {} }), /unknown key "health\.check_every"/);
});

test('[accounts] and [smtp]: defaults, choices and the secret key format', () => {
  const defaults = loadConfig({ env: {} });
  assert.deepEqual(defaults.accounts, {
    registration: 'invite', defaultPlan: 'free', secretKey: null, keyGraceSeconds: 86_400, sessionIdleHours: 72, sessionMaxDays: 30,
    usageKeepDays: 400, passwordHashConcurrency: 2, signinFailuresPerIp: 30, signinFailuresPerAccount: 10,
    signinAttemptsPerIp: 60, signinAttemptsPerAccount: 20, keyFailuresPerIp: 100,
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
key_failures_per_ip = 0
[smtp]
url = "smtp://u:p@127.0.0.1:2525"
`);
  const config = loadConfig({ file, env: { OUTPOINT_ACCOUNTS_SESSION_IDLE_HOURS: '1' } });
  assert.equal(config.accounts.registration, 'open');
  assert.equal(config.accounts.defaultPlan, 'trial');
  assert.equal(config.accounts.secretKey, 'ab'.repeat(32));
  assert.equal(config.accounts.keyGraceSeconds, 0);
  assert.equal(config.accounts.keyFailuresPerIp, 0, '0 turns the v3 key-failure limit off');
  assert.equal(config.accounts.sessionIdleHours, 1);
  assert.deepEqual(config.smtp, { url: 'smtp://u:p@127.0.0.1:2525', from: 'Outpoint <outpoint@api.example.com>' });
  assert.throws(() => loadConfig({ file: configFile('[accounts]\nregistration = "public"\n'), env: {} }), /accounts\.registration must be one of closed, invite, open/);
  assert.throws(() => loadConfig({ file: configFile('[accounts]\nsecret_key = "abc"\n'), env: {} }), /accounts\.secret_key must be 64 hex digits/);
  assert.throws(() => loadConfig({ file: configFile('[accounts]\nusage_keep_days = 30\n'), env: {} }), /usage_keep_days must be between 90/);
  assert.throws(() => loadConfig({ file: configFile('[smtp]\nhost = "x"\n'), env: {} }), /unknown key "smtp\.host"/);
});

test('p2p: discovery on by default on main and test chains, off on regtest; peers, target and env overrides', () => {
  const net = (text: string, env: NodeJS.ProcessEnv = {}) =>
    loadConfig({ file: configFile(`[networks.LTCTEST]\nrpc_url = "http://127.0.0.1:19332"\n${text}`), env }).networks[0]!.p2p;
  assert.deepEqual(net(''), { peers: [], discover: true, targetPeers: 8, enabled: true });
  assert.deepEqual(net('chain = "regtest"'), { peers: [], discover: false, targetPeers: 8, enabled: false }, 'regtest: off unless peers are given');
  assert.deepEqual(net('chain = "regtest"\np2p_peers = ["127.0.0.1:19444", "127.0.0.1:19445", "[::1]", "node.local"]'), {
    peers: ['127.0.0.1:19444', '127.0.0.1:19445', '[::1]', 'node.local'], discover: false, targetPeers: 8, enabled: true,
  });
  assert.equal(net('p2p_target_peers = 0').enabled, false, '0 turns the listener off');
  assert.equal(net('p2p_discover = false').enabled, false);
  assert.deepEqual(net('', { OUTPOINT_NETWORKS_LTCTEST_P2P_PEERS: '10.0.0.1:19335,10.0.0.2', OUTPOINT_NETWORKS_LTCTEST_P2P_DISCOVER: '0' }), {
    peers: ['10.0.0.1:19335', '10.0.0.2'], discover: false, targetPeers: 8, enabled: true,
  });
  assert.throws(() => net('p2p_peers = ["10.0.0.1:99999"]'), ConfigError);
  assert.throws(() => net('p2p_peers = ["http://x"]'), /not host:port/);
  assert.throws(() => net('p2p_discover = "maybe"'), /true or false/);
  assert.throws(() => net('p2p_target_peers = 65'), /between 0 and 64/);
});
