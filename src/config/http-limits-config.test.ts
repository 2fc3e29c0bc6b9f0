import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ConfigError } from '../core/index.js';
import { loadConfig } from './config-loader.js';
import { defaultMaxConnections } from './http-limits-config.js';

const dir = mkdtempSync(join(tmpdir(), 'outpoint-http-limits-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function fromToml(http: string): ReturnType<typeof loadConfig>['http'] {
  const file = join(dir, 'outpoint.toml');
  writeFileSync(file, `[http]\n${http}\n`);
  return loadConfig({ file, env: {} }).http;
}

test('defaults: no proxy trusted, 30 s per request, 65 s keep-alive, connections sized for the machine, 100 websockets per address', () => {
  const config = loadConfig({ env: {} });
  assert.equal(config.http.trustProxy, false);
  assert.equal(config.http.requestTimeoutS, 30);
  assert.equal(config.http.keepAliveTimeoutS, 65);
  assert.equal(config.http.maxConnections, defaultMaxConnections());
  assert.equal(config.realtime.maxConnectionsPerIp, 100);
  assert.equal(loadConfig({ env: { OUTPOINT_REALTIME_MAX_CONNECTIONS_PER_IP: '0' } }).realtime.maxConnectionsPerIp, 0, '0 = off');
});

test('the default connection cap: the open-file limit less 512, at most one per 128 KiB of memory, at least 64', () => {
  const soft = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
  const byMemory = Math.floor(totalmem() / (128 * 1024));
  assert.equal(defaultMaxConnections(), Math.max(64, Math.min(byMemory, soft === undefined ? byMemory : Number(soft) - 512)));
});

test('trust_proxy in TOML: booleans, a hop count, a list of addresses and ranges', () => {
  assert.equal(fromToml('trust_proxy = true').trustProxy, true);
  assert.equal(fromToml('trust_proxy = false').trustProxy, false);
  assert.equal(fromToml('trust_proxy = 2').trustProxy, 2);
  assert.deepEqual(fromToml('trust_proxy = ["127.0.0.1", "10.0.0.0/8", "loopback", "::1"]').trustProxy, ['127.0.0.1', '10.0.0.0/8', 'loopback', '::1']);
  assert.deepEqual(fromToml('trust_proxy = "10.0.0.1, 10.0.0.2"').trustProxy, ['10.0.0.1', '10.0.0.2'], 'a string is read as the environment form');
});

test('trust_proxy from the environment: true/false, a count, a comma-separated list', () => {
  const trust = (value: string) => loadConfig({ env: { OUTPOINT_HTTP_TRUST_PROXY: value } }).http.trustProxy;
  assert.equal(trust('true'), true);
  assert.equal(trust('1'), 1, 'digits are a hop count, as in TOML: "1" does not trust every hop');
  assert.equal(trust('0'), 0);
  assert.equal(trust('false'), false);
  assert.equal(trust('3'), 3);
  assert.deepEqual(trust('172.16.0.0/12,::1'), ['172.16.0.0/12', '::1']);
});

test('refused: ranges and names that are no address, negative or huge counts, other types', () => {
  for (const [toml, message] of [
    ['trust_proxy = ["10.0.0.0/33"]', /http\.trust_proxy: .*10\.0\.0\.0\/33/],
    ['trust_proxy = ["proxy.example"]', /http\.trust_proxy: .*proxy\.example/],
    ['trust_proxy = -1', /hop count is between 0 and 64/],
    ['trust_proxy = 65', /hop count is between 0 and 64/],
    ['trust_proxy = [1, 2]', /must be true, false, a hop count or a list/],
    ['trust_proxy = { a = 1 }', /must be true, false, a hop count or a list/],
    ['request_timeout_s = 0', /http\.request_timeout_s must be between 1 and 3600/],
    ['keep_alive_timeout_s = "x"', /http\.keep_alive_timeout_s must be an integer/],
    ['max_connections = 0', /http\.max_connections must be between 1/],
  ] as const) {
    assert.throws(() => fromToml(toml), (err: unknown) => err instanceof ConfigError && message.test(err.message), toml);
  }
});
