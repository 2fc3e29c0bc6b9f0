/**
 * Issue 27, point 1, on the real process: what once took `outpoint serve` down (a websocket upgrade whose target has
 * a malformed escape or does not parse) is answered as a client error and the process serves on; frames that break
 * the websocket or Pusher protocol close that connection only; malformed configuration and snapshot files are one
 * clear line and a non-zero exit; and the last resort (a fault no client causes) is logged and exits 70.
 * The seeded fuzz of every entry is entries-fuzz.test.ts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { RawClient } from '../helpers/pusher-clients.js';
import { clientFrame, closeCode, pusherErrorCodes, rawExchange, upgradeRequest } from '../helpers/raw-http.js';
import { startServeWithBody, type ServeProcess } from '../helpers/serve-process.js';

const ROOT = new URL('../..', import.meta.url).pathname;
let serve: ServeProcess;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'outpoint-hostile-'));
  serve = await startServeWithBody('[market]\nsources = []', { readyPath: '/health' });
});

after(async () => {
  await serve?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The process is up and answers: after every hostile input. */
async function stillServing(what: string): Promise<void> {
  assert.equal(serve.child.exitCode, null, `${what}: the process is alive (${serve.log.join('').slice(-1500)})`);
  const health = await fetch(`${serve.url}/health`, { signal: AbortSignal.timeout(10_000) });
  assert.equal(health.status, 200, `${what}: /health answers`);
}

/** A fresh websocket on the Pusher path, opened by hand; resolves once the server's connection_established arrived. */
async function handshaken(): Promise<RawClient> {
  const client = RawClient.connect(serve.port, '/app/outpoint?protocol=7');
  await client.next((f) => f.event === 'pusher:connection_established');
  return client;
}

describe('outpoint serve: hostile websocket upgrades and frames', () => {
  it('an upgrade whose key has a malformed escape is refused with 4001; one whose target is no URL gets a 400', async () => {
    const malformed = await rawExchange(serve.port, upgradeRequest('/app/%E0%A4%A?protocol=7'), { timeoutMs: 5_000 });
    assert.equal(malformed.status, 101, malformed.text);
    assert.deepEqual(pusherErrorCodes(malformed.text), [4001], 'Application does not exist');
    assert.equal(closeCode(malformed.text), 4001);
    await stillServing('%E0%A4%A');

    const notUrl = await rawExchange(serve.port, upgradeRequest('http://[::1/app/outpoint?protocol=7'), { timeoutMs: 5_000 });
    assert.equal(notUrl.status, 400, notUrl.text);
    assert.ok(notUrl.closed);
    await stillServing('http://[::1');

    for (const target of ['/app/outpoint?protocol=%E0%A4%A', '/app/%25%00%ff?protocol=7', '/app/outpoint%?protocol=7']) {
      const answer = await rawExchange(serve.port, upgradeRequest(target), { timeoutMs: 5_000 });
      assert.equal(answer.status, 101, `${target}: ${answer.text}`);
      assert.ok(pusherErrorCodes(answer.text).every((code) => code >= 4000 && code < 4100), `${target}: a 40xx refusal`);
    }
    const oddHost = await rawExchange(serve.port, upgradeRequest('/app/outpoint?protocol=7', { Host: '[::1' }), { done: (t) => t.includes('connection_established'), timeoutMs: 5_000 });
    assert.match(oddHost.text, /pusher:connection_established/, 'the Host header does not matter to the handshake');
    await stillServing('odd targets and hosts');
  });

  it('a client that resets the connection right after its upgrade request costs nothing', async () => {
    for (const target of ['/elsewhere', '/app/outpoint?protocol=7', 'http://[::1/app/x']) {
      for (let i = 0; i < 20; i++) {
        const socket = net.connect(serve.port, '127.0.0.1');
        socket.on('error', () => undefined);
        await once(socket, 'connect');
        socket.write(upgradeRequest(target));
        socket.resetAndDestroy();
      }
    }
    await stillServing('upgrades reset by the client');
  });

  it('frames that break the websocket or Pusher protocol close that connection at most, never the process', async () => {
    const frames: [string, Buffer][] = [
      ['reserved opcode 0x3', clientFrame(Buffer.from('x'), 0x3)],
      ['unmasked text frame', Buffer.from([0x81, 0x02, 0x7b, 0x7d])],
      ['invalid UTF-8 text', clientFrame(Buffer.from([0xc3, 0x28, 0xff]))],
      ['a 2^63-byte length', Buffer.from([0x81, 0xff, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4])],
      ['close with code 999', clientFrame(Buffer.from([0x03, 0xe7]), 0x8)],
      ['JSON with a numeric event', clientFrame(Buffer.from('{"event":42,"data":{}}'))],
      ['subscribe with an object channel', clientFrame(Buffer.from('{"event":"pusher:subscribe","data":{"channel":{"a":1}}}'))],
      ['subscribe to a malformed address channel', clientFrame(Buffer.from('{"event":"pusher:subscribe","data":{"channel":"address_ltctest_%E0%A4%A"}}'))],
      ['double-encoded data that is not JSON', clientFrame(Buffer.from('{"event":"pusher:subscribe","data":"{\\"channel\\":"}'))],
      ['binary frame', clientFrame(Buffer.from([0, 1, 2, 255]), 0x2)],
      ['a fragment never finished', Buffer.from(clientFrame(Buffer.from('{"event":')).map((b, i) => (i === 0 ? 0x01 : b)))],
    ];
    for (const [what, frame] of frames) {
      const answer = await rawExchange(serve.port, upgradeRequest('/app/outpoint?protocol=7'), {
        timeoutMs: 1_500,
        onConnect: (socket) => setTimeout(() => socket.write(frame), 100),
      });
      assert.equal(answer.status, 101, `${what}: upgraded first`);
      await stillServing(what);
    }
    const client = await handshaken();
    client.send({ event: 'pusher:subscribe', data: { channel: 'blockchain_update_ltc' } });
    assert.equal(await client.errorCode(), 4300, 'a network not served here is a 4300, and the connection stays open');
    assert.equal(client.ws.readyState, WebSocket.OPEN);
    client.close();
  });
});

describe('outpoint commands: malformed files are a clear error', () => {
  /** Runs a command; its stderr must be one line starting "outpoint: " with no stack, its exit non-zero. */
  function refuses(args: string[], pattern: RegExp, label = ''): void {
    const run = spawnSync(process.execPath, ['bin/outpoint.js', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, OUTPOINT_MARKET_SOURCES: '' } });
    const what = `${label} ${args.join(' ')}`;
    assert.notEqual(run.status, 0, `${what}: a non-zero exit`);
    assert.equal(run.stderr.trimEnd().split('\n').length, 1, `${what}: one line, got:\n${run.stderr}`);
    assert.match(run.stderr, /^outpoint: /, what);
    assert.doesNotMatch(run.stderr, /\n\s+at |TypeError|SyntaxError|Cannot read properties/, `${what}: no stack, no internal error`);
    assert.match(run.stderr, pattern, what);
  }

  it('configuration: invalid TOML, URLs that do not parse, values of the wrong type or shape', () => {
    const cases: [string, RegExp][] = [
      ['data_dir = "x"\n[http\nport = 1\n', /not valid TOML: line 2, column \d+/],
      ['[http]\npublic_url = "http://[::1"\n', /http\.public_url must be a URL/],
      ['[http]\ntrust_proxy = ["10.0.0.0/33"]\n', /http\.trust_proxy: .*10\.0\.0\.0\/33/],
      ['[http]\ntrust_proxy = { a = 1 }\n', /http\.trust_proxy must be/],
      ['[http]\nrequest_timeout_s = "soon"\n', /http\.request_timeout_s must be an integer/],
      ['[realtime]\nmax_connections_per_ip = -1\n', /realtime\.max_connections_per_ip must be between/],
      ['networks = 5\n', /\[networks\] must be a table/],
      ['[networks.LTC]\nrpc_url = "http://[::1:9332"\n', /networks\.LTC\.rpc_url must be a URL/],
      ['\u0000\u00ff\u0001binary', /not valid TOML/],
    ];
    for (const [i, [toml, pattern]] of cases.entries()) {
      const file = join(dir, `bad-${i}.toml`);
      writeFileSync(file, toml);
      refuses(['serve', '--config', file], pattern);
    }
  });

  it('snapshot import: not gzip, gzip of garbage, a header that is null, lacks its tip or has a malformed one', () => {
    const config = join(dir, 'import.toml');
    writeFileSync(config, `data_dir = "${dir}"\n[store]\nurl = "sqlite:${join(dir, 'import.db')}"\n[market]\nsources = []\n`);
    const frame = (value: unknown): Buffer => {
      const body = Buffer.from(JSON.stringify(value));
      const length = Buffer.alloc(4);
      length.writeUInt32BE(body.length);
      return Buffer.concat([length, body]);
    };
    const magic = Buffer.from('OUTPOINT-DUMP 1\n', 'latin1');
    const tip = { height: 5, hash: 'ab'.repeat(32), next_tx: '12' };
    const header = { kind: 'snapshot', network: 'LTCTEST', tip, schema_version: 1, script_key_salt: 'cd'.repeat(16), source_engine: 'sqlite', created_at: 'now' };
    const files: [string, Buffer, RegExp][] = [
      ['plain text', Buffer.from('not a snapshot at all'), /corrupt or truncated/],
      ['gzip of garbage', gzipSync(Buffer.from('garbage garbage garbage')), /not an Outpoint dump|corrupt/],
      ['a null header', gzipSync(Buffer.concat([magic, frame(null)])), /not a chain snapshot/],
      ['no tip', gzipSync(Buffer.concat([magic, frame({ ...header, tip: undefined })])), /not a chain snapshot \(its header has no tip\)/],
      ['a tip hash that is SQL', gzipSync(Buffer.concat([magic, frame({ ...header, tip: { ...tip, hash: "00'); DROP TABLE tips; --" } })])), /malformed tip hash/],
      ['a non-numeric next_tx', gzipSync(Buffer.concat([magic, frame({ ...header, tip: { ...tip, next_tx: 'x' } })])), /malformed next_tx/],
      ['a frame length past the end', gzipSync(Buffer.concat([magic, Buffer.from([0, 0, 0x10, 0])])), /corrupt or truncated/],
    ];
    for (const [i, [what, bytes, pattern]] of files.entries()) {
      const file = join(dir, `bad-${i}.snapshot`);
      writeFileSync(file, bytes);
      refuses(['snapshot', 'import', file, '--no-node-check', '--config', config], pattern, what);
    }
  });
});

describe('the last resort', () => {
  for (const fault of ['throw', 'reject'] as const) {
    it(`a fault no client causes (${fault === 'throw' ? 'an uncaught exception' : 'an unhandled rejection'}) is logged as one line and exits 70`, async () => {
      const faulty = await startServeWithBody('[market]\nsources = []', {
        readyPath: '/health', nodeArgs: ['--import', './test/helpers/fault-on-signal.mjs'], env: { OUTPOINT_TEST_FAULT: fault },
      });
      try {
        const exited = once(faulty.child, 'exit') as Promise<[number | null]>;
        faulty.child.kill('SIGUSR2');
        const [code] = await exited;
        assert.equal(code, 70, faulty.log.join(''));
        const lines = faulty.log.join('').trim().split('\n').map((l) => JSON.parse(l) as { level: string; message: string; error?: string });
        const last = lines[lines.length - 1]!;
        assert.equal(last.level, 'error');
        assert.equal(last.message, fault === 'throw' ? 'uncaught exception: exiting' : 'unhandled promise rejection: exiting');
        assert.match(last.error ?? '', /deliberate/);
      } finally {
        await faulty.stop();
      }
    });
  }
});
