import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { RpcError, RpcUnavailableError } from '../../core/domain/errors.js';
import { startLitecoind, type RegtestNode } from '../../../test/helpers/regtest-node.js';
import { parseJsonExactDecimals } from './exact-json.js';
import { RpcClient } from './rpc-client.js';
import { txidsOf } from '../../core/domain/txid-set.js';
import { NodeClient } from './node-client.js';
import { readTxidListReply } from './txid-list-reply.js';

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

function close(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('RpcClient against litecoind -regtest', () => {
  let node: RegtestNode;
  before(async () => {
    node = await startLitecoind({ wallet: false });
  });
  after(async () => {
    await node?.stop();
  });

  test('calls a method and returns its result', async () => {
    assert.equal(await node.rpc.call<number>('getblockcount'), 0);
    const info = await node.rpc.call<{ chain: string }>('getblockchaininfo');
    assert.equal(info.chain, 'regtest');
  });

  test('batch returns results in call order, failed items as RpcError', async () => {
    const genesis = await node.rpc.call<string>('getblockhash', [0]);
    const results = await node.rpc.batch<string>([
      { method: 'getblockhash', params: [0] },
      { method: 'getblockhash', params: [9999] },
      { method: 'getbestblockhash' },
      { method: 'nosuchmethod' },
    ]);
    assert.equal(results.length, 4);
    assert.equal(results[0], genesis);
    assert.ok(results[1] instanceof RpcError);
    assert.equal((results[1] as RpcError).rpcCode, -8);
    assert.equal(results[2], genesis);
    assert.ok(results[3] instanceof RpcError);
    assert.equal((results[3] as RpcError).rpcCode, -32601);
    assert.deepEqual(await node.rpc.batch([]), []);
  });

  test("errors carry the node's code, message and the method", async () => {
    await assert.rejects(node.rpc.call('getrawtransaction', ['00'.repeat(32)]), (err: unknown) => {
      assert.ok(err instanceof RpcError);
      assert.equal(err.rpcCode, -5);
      assert.equal(err.method, 'getrawtransaction');
      assert.equal(err.code, 'RPC_ERROR');
      assert.match(err.message, /No such mempool or blockchain transaction/);
      return true;
    });
    await assert.rejects(node.rpc.call('getblockhash', [-1]), (err: unknown) => err instanceof RpcError && err.rpcCode === -8);
  });

  test('exactDecimals keeps amounts as their decimal text', async () => {
    const info = await node.rpc.call<Record<string, unknown>>('getmempoolinfo', [], { exactDecimals: true });
    assert.equal(info.minrelaytxfee, '0.00001000');
    assert.equal(info.size, 0);
  });

  test('callReading: a reply read from its bytes, anything else decoded as call() does (same result, same errors)', async () => {
    const asCall = await node.rpc.call<string[]>('getrawmempool', [false]);
    const read = (body: Buffer): string[] | null => {
      const list = readTxidListReply(body);
      return list && txidsOf(list);
    };
    assert.deepEqual(await node.rpc.callReading('getrawmempool', [false], read, (r) => ['from json', ...(r as string[])]), asCall);
    // Not a reply `read` knows: the result as call() gives it.
    assert.deepEqual(await node.rpc.callReading('getrawmempool', [false], () => null, (r) => ['from json', ...(r as string[])]), ['from json', ...asCall]);
    await assert.rejects(node.rpc.callReading('getblockhash', [-1], read, (r) => r as string[]), (err: unknown) => err instanceof RpcError && err.rpcCode === -8);
    const client = new NodeClient(node.rpc);
    assert.deepEqual(txidsOf(await client.getMempoolTxidList()), asCall);
    assert.deepEqual(await client.getRawMempoolVerbose(), new Map());
  });

  test('cookie auth, re-read after the node restarts and rewrites the cookie', async () => {
    const withCookie = node.client({ url: `http://127.0.0.1:${node.rpcPort}/`, cookieFile: node.cookieFile, retries: 20, backoffMs: 100 });
    assert.equal(await withCookie.call<number>('getblockcount'), 0);
    withCookie.close();
    await node.halt();
    await node.resume();
    assert.equal(await withCookie.call<number>('getblockcount'), 0);
    withCookie.close();
  });

  test('wrong password fails at once as RpcUnavailableError', async () => {
    const bad = node.client({ url: `http://outpoint:wrong@127.0.0.1:${node.rpcPort}/`, retries: 5, backoffMs: 1_000 });
    const t0 = Date.now();
    await assert.rejects(bad.call('getblockcount'), (err: unknown) => err instanceof RpcUnavailableError && /401/.test(err.message));
    assert.ok(Date.now() - t0 < 900, 'a 401 with URL credentials is not retried');
  });

  test('retries through a node restart (refused connections, -28 warm-up)', async () => {
    const patient = node.client({ url: node.rpcUrl, retries: 12, backoffMs: 50 });
    await node.halt();
    const pending = patient.call<number>('getblockcount');
    await delay(300);
    await node.resume();
    assert.equal(await pending, 0);
    patient.close();
  });

  test('no retries after the last attempt: RpcUnavailableError with the cause', async () => {
    const server = net.createServer();
    const port = await listen(server);
    await close(server); // nothing listens here any more
    const client = new RpcClient({ url: `http://u:p@127.0.0.1:${port}/`, retries: 2, backoffMs: 10 });
    await assert.rejects(client.call('getblockcount'), (err: unknown) => {
      assert.ok(err instanceof RpcUnavailableError);
      assert.match(err.message, /3 attempt\(s\).*ECONNREFUSED/);
      return true;
    });
    client.close();
  });
});

describe('RpcClient against local fake servers', () => {
  test('times out on a server that accepts and never answers, retrying each time', async () => {
    const sockets: net.Socket[] = [];
    const server = net.createServer((s) => sockets.push(s));
    const port = await listen(server);
    const client = new RpcClient({ url: `http://u:p@127.0.0.1:${port}/`, timeoutMs: 150, retries: 1, backoffMs: 10 });
    const t0 = Date.now();
    await assert.rejects(client.call('getblockcount'), (err: unknown) => err instanceof RpcUnavailableError && /timed out/.test(err.message));
    const elapsed = Date.now() - t0;
    assert.ok(elapsed >= 300 && elapsed < 2_000, `two 150 ms attempts, took ${elapsed} ms`);
    assert.equal(sockets.length, 2);
    client.close();
    for (const s of sockets) s.destroy();
    await close(server);
  });

  test('retries a 5xx without a JSON body, not a JSON-RPC error', async () => {
    let requests = 0;
    const server = http.createServer((req, res) => {
      requests++;
      req.resume();
      req.on('end', () => {
        if (requests === 1) {
          res.writeHead(503).end('Work queue depth exceeded');
        } else if (requests === 2) {
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":42,"error":null,"id":0}');
        } else {
          res.writeHead(500, { 'content-type': 'application/json' }).end('{"result":null,"error":{"code":-8,"message":"bad"},"id":1}');
        }
      });
    });
    const port = await listen(server);
    const client = new RpcClient({ url: `http://u:p@127.0.0.1:${port}/`, retries: 3, backoffMs: 10 });
    assert.equal(await client.call<number>('getblockcount'), 42);
    assert.equal(requests, 2);
    await assert.rejects(client.call('getblockhash'), (err: unknown) => err instanceof RpcError && err.rpcCode === -8);
    assert.equal(requests, 3, 'JSON-RPC errors are answers, never retried');
    client.close();
    await close(server);
  });

  test('keeps going after the server closes an idle keep-alive socket', async () => {
    let requests = 0;
    const server = http.createServer((req, res) => {
      requests++;
      req.resume();
      req.on('end', () => res.end('{"result":1,"error":null,"id":0}'));
    });
    server.keepAliveTimeout = 50;
    const port = await listen(server);
    const client = new RpcClient({ url: `http://u:p@127.0.0.1:${port}/`, retries: 0 });
    assert.equal(await client.call('a'), 1);
    await delay(120);
    assert.equal(await client.call('b'), 1);
    assert.equal(requests, 2);
    client.close();
    await close(server);
  });
});

describe('parseJsonExactDecimals', () => {
  test('quotes decimal numbers only, leaves strings and integers alone', () => {
    const text = '{"a":0.00012345,"b":12,"c":"x\\"y:1.5","d":[1.10000000,-2.5e-7,3],"e":21000000.00000000}';
    assert.deepEqual(parseJsonExactDecimals(text), {
      a: '0.00012345',
      b: 12,
      c: 'x"y:1.5',
      d: ['1.10000000', '-2.5e-7', 3],
      e: '21000000.00000000',
    });
  });
});
