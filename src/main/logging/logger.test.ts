import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger, type LoggerOptions } from './logger.js';

function capture(options: Omit<LoggerOptions, 'stream'> & { tty?: boolean } = {}) {
  const lines: string[] = [];
  const stream = { isTTY: options.tty ?? false, write: (text: string) => lines.push(text) };
  const logger = createLogger({ ...options, stream, now: () => new Date('2026-01-02T03:04:05.678Z') });
  return { logger, lines };
}

void test('not on a terminal: one JSON object per line with time, level, message and the fields', () => {
  const { logger, lines } = capture();
  logger.info('indexing', { network: 'LTC', height: 5, big: 2n ** 70n, nested: { ok: true } });
  logger.warn('line\nbreak', { message: 'a field named like a key of the line' });
  assert.equal(lines.length, 2);
  assert.ok(lines.every((l) => l.endsWith('\n') && !l.slice(0, -1).includes('\n')), 'one line each');
  assert.deepEqual(JSON.parse(lines[0]!), {
    time: '2026-01-02T03:04:05.678Z', level: 'info', message: 'indexing', network: 'LTC', height: 5, big: '1180591620717411303424', nested: { ok: true },
  });
  assert.deepEqual(JSON.parse(lines[1]!), { time: '2026-01-02T03:04:05.678Z', level: 'warn', message: 'line\nbreak', field_message: 'a field named like a key of the line' });
});

void test('on a terminal: readable text; [log] format forces either form', () => {
  const tty = capture({ tty: true });
  tty.logger.info('http listening', { url: 'http://127.0.0.1:3000' });
  assert.equal(tty.lines[0], '2026-01-02T03:04:05.678Z info http listening url=http://127.0.0.1:3000\n');
  const forced = capture({ tty: true, format: 'json' });
  forced.logger.error('x');
  assert.equal(JSON.parse(forced.lines[0]!).level, 'error');
  const text = capture({ format: 'text' });
  text.logger.info('y');
  assert.match(text.lines[0]!, /^\S+ info y\n$/);
});

void test('[log] level drops lower levels; debug exists only when enabled', () => {
  const warn = capture({ level: 'warn' });
  warn.logger.info('dropped');
  warn.logger.warn('kept');
  warn.logger.error('kept too');
  assert.equal(warn.lines.length, 2);
  assert.equal(warn.logger.debug, undefined);
  assert.equal(capture().logger.debug, undefined, 'info (the default) has no debug');
  const debug = capture({ level: 'debug' });
  debug.logger.debug?.('request', { reqId: 'abc' });
  assert.equal(JSON.parse(debug.lines[0]!).reqId, 'abc');
});

void test('secrets never reach a line: URL passwords, secret-named fields, API keys, auth headers', () => {
  const { logger, lines } = capture();
  const key = `opk_Ab12Cd34${'x'.repeat(35)}`;
  logger.warn('waiting for the node at http://rpcuser:hunter2-rpc@127.0.0.1:9332/', {
    node: 'http://rpcuser:hunter2-rpc@127.0.0.1:9332',
    store: 'postgres://outpoint:pg-secret-9@db:5432/outpoint',
    redis: 'redis://:redis-secret-7@127.0.0.1:6379',
    password: 'plain-password-1',
    rpcCookie: '__cookie__:c00k1e-contents',
    headers: { authorization: 'Basic dXNlcjpwYXNz', 'api-key': key },
    error: new Error(`request with ${key} failed: Authorization: Bearer abcdefghijklmnop`),
    cookieFile: '/home/node/.litecoin/.cookie',
    link: 'https://x.example/dashboard/reset?token=r3set-t0ken-value&next=/keys',
    sessions_and_tokens: 4,
  });
  const line = lines.join('');
  for (const secret of ['hunter2-rpc', 'pg-secret-9', 'redis-secret-7', 'plain-password-1', 'c00k1e-contents', 'dXNlcjpwYXNz', 'x'.repeat(35), 'abcdefghijklmnop', 'r3set-t0ken-value']) {
    assert.ok(!line.includes(secret), `${secret} leaked: ${line}`);
  }
  const parsed = JSON.parse(line) as Record<string, unknown>;
  assert.equal(parsed['node'], 'http://***@127.0.0.1:9332');
  assert.equal(parsed['cookieFile'], '/home/node/.litecoin/.cookie', 'a path is not a secret');
  assert.match(String(parsed['error']), /opk_Ab12Cd34…/);
  assert.equal(parsed['link'], 'https://x.example/dashboard/reset?token=[redacted]&next=/keys');
  assert.equal(parsed['sessions_and_tokens'], 4, 'a count is no secret');
});

void test('wallet keys: extended public keys are masked unless [log] wallet_keys keeps them; private keys always are', () => {
  const xpub = 'xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V';
  const xprv = 'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi';
  const url = `/api/v3/xpub/BTC/${encodeURIComponent(`wpkh([d34db33f/84h/0h/0h]${xpub}/<0;1>/*)`)}/transactions/2`;
  const masked = capture({ level: 'debug' });
  masked.logger.debug!('http request', { path: url, note: `from ${xprv}` });
  const line = masked.lines.join('');
  assert.ok(!line.includes(xpub.slice(4)), `the wallet's key leaked: ${line}`);
  assert.ok(line.includes('xpub[redacted]'), line);
  assert.ok(!line.includes(xprv.slice(4)) && line.includes('xprv[redacted]'), line);
  const kept = capture({ level: 'debug', walletKeys: true });
  kept.logger.debug!('http request', { path: url, note: `from ${xprv}` });
  assert.ok(kept.lines.join('').includes(xpub), 'kept when the operator turns the log on');
  assert.ok(!kept.lines.join('').includes(xprv.slice(4)), 'private keys never');
});

void test('WIF private keys are masked at every level, in URLs and in text, on every network; other base58 is left alone', () => {
  // Bitcoin's, testnets' and Litecoin's (compressed and not) of the same secret: none may appear in any line.
  const wifs = ['5HpHagT65TZzG1PH3CSu63k8DbpvD8s5ip4nEB3kEsreAnchuDf', 'KwDiBf89QgGbjEhKnhXJuH7LrciVrZi3qYjgd9M7rFU73sVHnoWn',
    'cMahea7zqjxrtgAbB7LSGbcQUr1uX1ojuat9jZodMN87JcbXMTcA', 'T33ydQRKp4FCW5LCLLUB7deioUMoveiwekdwUwyfRDeGZm76aUjV'];
  const address = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
  for (const level of ['debug', 'info', 'warn', 'error'] as const) {
    const { logger, lines } = capture({ level: 'debug' });
    for (const wif of wifs) logger[level]!(`asked ${wif}`, { path: `/ltctest/xpub/${encodeURIComponent(`wpkh(${wif}/0/*)`)}`, note: `[${wif}]`, address });
    const text = lines.join('');
    for (const wif of wifs) assert.ok(!text.includes(wif.slice(1, 40)), `${level}: ${wif} leaked: ${text}`);
    assert.equal(text.split('WIF[redacted]').length - 1, wifs.length * 3, text);
    assert.ok(text.includes(address), 'addresses are kept');
  }
});
