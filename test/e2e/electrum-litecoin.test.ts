/**
 * The Electrum server on litecoind regtest (polling, no ZMQ), both engines (issue 49): every method as the node says
 * it, over TCP; the same over TLS (the [http] certificate, a renewed one taken on SIGHUP by new connections while open
 * ones stay), WebSocket and secure WebSocket, with a subscription notified over WebSocket; /ready naming the
 * listeners; and each limit of `[electrum]`, set low: connections per address, subscriptions per connection and in
 * all, the request line (an unterminated 4 MiB line closes its connection and nothing else), requests per second
 * (held back to the rate), and the history size.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect as tlsConnect } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkFees, checkHeaders, checkScripthashes, checkTransactions, rejectsWith } from '../helpers/electrum-checks.js';
import { getJson, startElectrumServe, type ElectrumServe } from '../helpers/electrum-serve.js';
import { makeElectrumScenario, scriptOf, type ElectrumScenario } from '../helpers/electrum-scenario.js';
import { ElectrumTestClient, scripthashOf } from '../helpers/electrum-test-client.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines, testEngines } from '../helpers/store-engines.js';
import { makeCa, makeServerCertificate, type ServerCertificate } from '../helpers/tls-certificates.js';

let ltc: RegtestNode;
let scenario: ElectrumScenario;
let dir: string;
let ca: Buffer;
let first: ServerCertificate;
let second: ServerCertificate;
const engines = new StoreEngines();
const servers = new Map<string, ElectrumServe>();
const LIMITS = { max_connections_per_ip: '8', max_subscriptions_per_connection: '20', max_subscriptions: '30', max_request_bytes: '65536', requests_per_second: '20', max_history: '100' };

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'outpoint-electrum-tls-'));
  ca = readFileSync(makeCa(dir));
  first = makeServerCertificate(dir, 'first', 2);
  second = makeServerCertificate(dir, 'second', 3);
  ltc = await startLitecoind({ funded: true });
  scenario = await makeElectrumScenario(ltc);
  for (const engine of testEngines()) {
    // Each server its own certificate files, so one can be renewed alone.
    copyFileSync(first.certFile, join(dir, `${engine}.pem`));
    copyFileSync(first.keyFile, join(dir, `${engine}.key`));
    const server = await startElectrumServe(ltc, (await engines.create(engine)).url, {
      transports: ['tcp', 'tls', 'ws', 'wss'], electrum: LIMITS, tls: { certFile: join(dir, `${engine}.pem`), keyFile: join(dir, `${engine}.key`), ca },
    });
    servers.set(engine, server);
    await server.caughtUp(ltc);
  }
});

after(async () => {
  for (const server of servers.values()) await server.stop();
  await ltc?.stop();
  await engines.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Open Electrum connections of the server, all transports, from its metrics. */
async function openConnections(server: ElectrumServe): Promise<number> {
  const text = await new Promise<string>((resolve) => {
    const socket = tlsConnect({ host: '127.0.0.1', port: server.serve.port, ca, servername: 'localhost' }, () => socket.write('GET /metrics HTTP/1.0\r\n\r\n'));
    let out = '';
    socket.setEncoding('utf8').on('data', (c: string) => (out += c)).on('end', () => resolve(out)).on('error', () => resolve(''));
  });
  return [...text.matchAll(/^outpoint_electrum_connections\{[^}]*\} (\d+)/gm)].reduce((s, m) => s + Number(m[1]), 0);
}

function tlsFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, ca, servername: 'localhost' }, () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.destroy();
    });
    socket.on('error', reject);
  });
}

for (const engine of testEngines()) {
  describe(`Electrum on litecoind (${engine})`, () => {
    const server = (): ElectrumServe => servers.get(engine)!;

    it('refuses connections past max_connections_per_ip, and takes one again when one closes', async () => {
      await waitFor(async () => (await openConnections(server())) === 0, 20_000, 'earlier connections closed');
      const clients: ElectrumTestClient[] = [];
      try {
        for (let i = 0; i < 8; i++) {
          clients.push(await server().connect());
          assert.equal(await clients.at(-1)!.request('server.ping'), null);
        }
        const refused = await server().connect();
        await waitFor(() => refused.closed, 10_000, 'the ninth connection closed');
        clients.pop()!.close();
        await waitFor(async () => (await openConnections(server())) === 7, 10_000, 'one fewer');
        clients.push(await server().connect());
        assert.equal(await clients.at(-1)!.request('server.ping'), null);
      } finally {
        for (const c of clients) c.close();
        await waitFor(async () => (await openConnections(server())) === 0, 20_000, 'the connections closed');
      }
    });

    for (const version of ['1.4', '1.6'] as const) {
      it(`answers as the node says over TCP, protocol ${version}`, async () => {
        const client = await server().connect();
        try {
          await client.request('server.version', ['outpoint-test', version]);
          await checkScripthashes(client, ltc, scenario, version);
          await checkHeaders(client, ltc, version);
          await checkTransactions(client, ltc, scenario);
          await checkFees(client, ltc, version);
        } finally {
          client.close();
        }
      });
    }

    it('answers over TLS with the [http] certificate, and new connections get a renewed one after SIGHUP', async () => {
      const port = server().ports.tls!;
      const open = await ElectrumTestClient.connect({ kind: 'tls', port, ca });
      try {
        await open.request('server.version', ['tls', '1.6']);
        await checkHeaders(open, ltc, '1.6');
        assert.equal(await tlsFingerprint(port), first.fingerprint256);
        copyFileSync(second.certFile, join(dir, `${engine}.pem`));
        copyFileSync(second.keyFile, join(dir, `${engine}.key`));
        server().serve.child.kill('SIGHUP');
        await waitFor(async () => (await tlsFingerprint(port)) === second.fingerprint256, 10_000, 'the renewed certificate');
        assert.equal(await open.request('server.ping'), null, 'the open connection stays');
      } finally {
        open.close();
      }
    });

    it('answers and notifies over WebSocket, and over wss; /ready names the listeners', async () => {
      const ws = await ElectrumTestClient.connect({ kind: 'ws', url: `ws://127.0.0.1:${server().ports.ws}` });
      const wss = await ElectrumTestClient.connect({ kind: 'ws', url: `wss://localhost:${server().ports.wss}`, ca });
      try {
        for (const client of [ws, wss]) {
          await client.request('server.version', ['ws', '1.6']);
          await checkScripthashes(client, ltc, scenario, '1.6');
        }
        const address = await ltc.newAddress('bech32');
        const sh = scripthashOf(Buffer.from(await scriptOf(ltc, address), 'hex'));
        assert.equal(await ws.request('blockchain.scripthash.subscribe', [sh]), null);
        await ltc.send(address, '0.3');
        const note = await ws.nextNotification('blockchain.scripthash.subscribe', (p) => p[0] === sh);
        assert.equal(typeof note.params[1], 'string');
        const ready = await getJson(`https://127.0.0.1:${server().serve.port}/ready`, ca) as { networks: Record<string, { electrum: Record<string, string> }> };
        assert.deepEqual(ready.networks['LTCTEST']!.electrum, Object.fromEntries(Object.entries(server().ports).map(([t, p]) => [t === 'tls' ? 'ssl' : t, `127.0.0.1:${p}`])));
      } finally {
        ws.close();
        wss.close();
      }
    });

    it('limits subscriptions per connection and in all', async () => {
      await waitFor(async () => (await openConnections(server())) === 0, 20_000, 'earlier connections closed');
      const [a, b] = [await server().connect(), await server().connect()];
      try {
        const hashes = Array.from({ length: 31 }, (_, i) => scripthashOf(Buffer.from([0x51, i])));
        for (const sh of hashes.slice(0, 20)) assert.equal(await a.request('blockchain.scripthash.subscribe', [sh]), null);
        assert.equal(await a.request('blockchain.scripthash.subscribe', [hashes[0]]), null, 'the same again is no new subscription');
        await rejectsWith(a.request('blockchain.scripthash.subscribe', [hashes[20]]), 4, /Subscription limit reached/);
        for (const sh of hashes.slice(20, 30)) assert.equal(await b.request('blockchain.scripthash.subscribe', [sh]), null);
        await rejectsWith(b.request('blockchain.scripthash.subscribe', [hashes[30]]), 4, /Subscription limit reached/);
        await b.request('server.version', ['b', '1.6']);
        assert.equal(await b.request('blockchain.scripthash.unsubscribe', [hashes[29]]), true);
        assert.equal(await b.request('blockchain.scripthash.subscribe', [hashes[30]]), null, 'freed by the unsubscribe');
      } finally {
        a.close();
        b.close();
      }
    });

    it('closes a connection sending an unterminated 4 MiB line, and only that one', async () => {
      const [flood, other] = [await server().connect(), await server().connect()];
      try {
        flood.sendRaw(`{"id":1,"method":"server.ping","params":["${'x'.repeat(4 * 2 ** 20)}`);
        await waitFor(() => flood.closed, 20_000, 'the flooding connection closed');
        assert.equal(await other.request('server.ping'), null);
      } finally {
        flood.close();
        other.close();
      }
    });

    it('holds requests past requests_per_second back to the rate', async () => {
      const client = await server().connect();
      try {
        const started = performance.now();
        // 240 requests at 20/s after a burst of 200: the last is answered 2 s after the first at the earliest.
        const answers = await Promise.all(Array.from({ length: 240 }, () => client.request('server.ping')));
        const seconds = (performance.now() - started) / 1000;
        assert.equal(answers.length, 240);
        assert.ok(seconds >= 1.9, `answered in ${seconds.toFixed(2)} s`);
      } finally {
        client.close();
      }
    });

    it('answers a history past max_history with an error, never a truncated list', async () => {
      const coinbase = (await ltc.rpc.call<{ tx: { vout: { scriptPubKey: { hex: string } }[] }[] }>('getblock', [await ltc.rpc.call('getblockhash', [1]), 2])).tx[0]!.vout[0]!.scriptPubKey.hex;
      const sh = scripthashOf(Buffer.from(coinbase, 'hex'));
      const client = await server().connect();
      try {
        await rejectsWith(client.request('blockchain.scripthash.get_history', [sh]), 1, /history too large/);
        await rejectsWith(client.request('blockchain.scripthash.subscribe', [sh]), 1, /history too large/);
        // Its unspent outputs are fewer (the wallet spent some coinbases): the bound is on each list, not the history.
        assert.ok((await client.request<unknown[]>('blockchain.scripthash.listunspent', [sh])).length <= 100);
        const balance = await client.request<{ confirmed: number }>('blockchain.scripthash.get_balance', [sh]);
        assert.ok(balance.confirmed > 0);
      } finally {
        client.close();
      }
    });
  });
}
