/**
 * The Dogecoin Core 1.14 stand-in checked against ../shared/nodes/dogecoin-1.14.md, row by row: what the tests
 * of Outpoint's client rest on must be what the facts file says, so each row gets an assertion that would
 * fail if the stand-in drifted. This file: the "Calls" rows (field sets, value types, error codes, HTTP
 * statuses, cookie, ports, warm-up); dogecoin-standin-zmq.test.ts: the ZMQ and "Regtest and policy" rows.
 */
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { auxPowChainId, parseBlock, serializeBlock } from '../../src/chains/parsing.js';
import { getNetworkParams } from '../../src/chains/networks.js';
import { toHex } from '../../src/chains/hash.js';
import { RpcUnavailableError } from '../../src/core/domain/errors.js';
import { RpcClient } from '../../src/node/rpc/rpc-client.js';
import { startDogecoinStandIn, type DogecoinStandIn } from '../helpers/dogecoin/dogecoin-standin.js';
import { call, rawRpc, rpcError } from '../helpers/dogecoin/raw-rpc.js';
import { DOGE_FEATURES } from '../helpers/dogecoin/regtest-rules.js';

let modern: DogecoinStandIn;
let legacy: DogecoinStandIn;

before(async () => {
  [modern, legacy] = await Promise.all([startDogecoinStandIn({ funded: true }), startDogecoinStandIn({ version: '1.14.6', funded: true, txindex: true })]);
});
after(async () => {
  await modern?.stop();
  await legacy?.stop();
});

const keys = (o: unknown): string[] => Object.keys(o as object);

describe('calls', () => {
  it('getblock: raw = header, AuxPoW, txs (round-trips through our parser); verbose has auxpow{} and no nTx; bool-only before 1.14.7', async () => {
    const hash = await modern.rpc.call<string>('getbestblockhash');
    const hex = await modern.rpc.call<string>('getblock', [hash, false]);
    assert.equal(await modern.rpc.call<string>('getblock', [hash, 0]), hex);
    const block = parseBlock(Buffer.from(hex, 'hex'), DOGE_FEATURES);
    assert.equal(toHex(serializeBlock(block)), hex);
    assert.ok(block.auxpow, 'merge-mined');
    assert.equal(auxPowChainId(block.header.version), 0x62);
    // initAuxPow: the parent coinbase commits to this block's hash (display order), then merkle size 1, nonce 0.
    assert.equal(toHex(block.auxpow.parentCoinbase.inputs[0]!.scriptSig.subarray(1, 33)), hash);
    const verbose = await modern.rpc.call<Record<string, unknown>>('getblock', [hash, 1]);
    assert.deepEqual(await modern.rpc.call('getblock', [hash, true]), verbose);
    assert.ok(!('nTx' in verbose));
    assert.deepEqual(keys(verbose.auxpow), ['tx', 'index', 'chainindex', 'merklebranch', 'chainmerklebranch', 'parentblock']);
    assert.equal(typeof ((await modern.rpc.call<{ tx: unknown[] }>('getblock', [hash, 2])).tx[0] as { txid: string }).txid, 'string');

    const old = await legacy.rpc.call<string>('getbestblockhash');
    assert.match(await legacy.rpc.call<string>('getblock', [old, false]), /^[0-9a-f]+$/);
    const refused = await rawRpc(legacy.rpcUrl, call('getblock', [old, 0]));
    assert.equal(refused.status, 500);
    assert.deepEqual((refused.json as { error: unknown }).error, { code: -1, message: 'JSON value is not a boolean as expected' });
  });

  it('getblockheader: the 1.14 field set without nTx; confirmations -1 off the main chain', async () => {
    const tip = await modern.rpc.call<string>('getbestblockhash');
    const header = await modern.rpc.call<Record<string, unknown>>('getblockheader', [tip, true]);
    assert.deepEqual(keys(header), [
      'hash', 'confirmations', 'height', 'version', 'versionHex', 'merkleroot', 'time', 'mediantime', 'nonce', 'bits', 'difficulty', 'chainwork', 'previousblockhash',
    ]);
    assert.match(header.bits as string, /^[0-9a-f]{8}$/);
    const parent = await modern.rpc.call<Record<string, unknown>>('getblockheader', [header.previousblockhash]);
    assert.equal(parent.nextblockhash, tip);
    await modern.rpc.call('invalidateblock', [tip]);
    assert.equal((await modern.rpc.call<{ confirmations: number }>('getblockheader', [tip])).confirmations, -1);
    await modern.rpc.call('reconsiderblock', [tip]);
    assert.equal(await modern.rpc.call('getbestblockhash'), tip);
  });

  it('getblockchaininfo: initialblockdownload from 1.14.7 only', async () => {
    const fields = ['chain', 'blocks', 'headers', 'bestblockhash', 'difficulty', 'mediantime', 'verificationprogress', 'chainwork', 'size_on_disk', 'pruned', 'softforks', 'bip9_softforks', 'warnings'];
    const now = await modern.rpc.call<Record<string, unknown>>('getblockchaininfo');
    assert.deepEqual(keys(now), [...fields.slice(0, 7), 'initialblockdownload', ...fields.slice(7)]);
    assert.equal(now.chain, 'regtest');
    assert.deepEqual(keys(await legacy.rpc.call('getblockchaininfo')), fields);
  });

  it('getrawmempool true / getmempoolentry: DOGE fee numbers, integer koinu ancestor/descendant fees, no vsize/fees/spentby/bip125', async () => {
    const parent = await modern.send(modern.wallet.newAddress(), '100');
    const child = modern.wallet.createTx({ inputs: [{ txid: parent, vout: 0 }], outputs: [{ address: modern.wallet.newAddress(), value: 9_000_000_000n }] });
    await modern.rpc.call('sendrawtransaction', [toHex(child.raw)]);
    const text = (await rawRpc(modern.rpcUrl, call('getrawmempool', [true]))).text;
    assert.match(text, /"fee":0\.\d{8},"modifiedfee":0\.\d{8},/);
    assert.match(text, /"descendantfees":\d+,/);
    const entries = await modern.rpc.call<Record<string, Record<string, unknown>>>('getrawmempool', [true]);
    assert.deepEqual(keys(entries[child.txid]), [
      'size', 'fee', 'modifiedfee', 'time', 'height', 'startingpriority', 'currentpriority',
      'descendantcount', 'descendantsize', 'descendantfees', 'ancestorcount', 'ancestorsize', 'ancestorfees', 'depends',
    ]);
    assert.deepEqual(entries[child.txid]!.depends, [parent]);
    assert.equal(entries[parent]!.descendantcount, 2);
    assert.deepEqual(await modern.rpc.call('getmempoolentry', [child.txid]), entries[child.txid]);
    const missing = await rpcError(modern.rpc.call('getmempoolentry', ['00'.repeat(32)]));
    assert.deepEqual([missing.rpcCode, missing.message], [-5, 'Transaction not in mempool']);
    await modern.mine(1);
  });

  it('getmempoolinfo has only size, bytes, usage, maxmempool, mempoolminfee; getnetworkinfo has the relay fee and dust limits', async () => {
    assert.deepEqual(keys(await modern.rpc.call('getmempoolinfo')), ['size', 'bytes', 'usage', 'maxmempool', 'mempoolminfee']);
    const text = (await rawRpc(modern.rpcUrl, call('getnetworkinfo'))).text;
    assert.match(text, /"relayfee":0\.00100000,"incrementalfee":0\.00100000,"softdustlimit":0\.01000000,"harddustlimit":0\.00100000/);
  });

  it('getrawtransaction: bool or number; without -txindex mempool txs and confirmed txs with an unspent output, else -5', async () => {
    const txid = await modern.send(modern.wallet.newAddress(), '5');
    assert.deepEqual(await modern.rpc.call('getrawtransaction', [txid, 1]), await modern.rpc.call('getrawtransaction', [txid, true]));
    assert.equal((await rpcError(modern.rpc.call('getrawtransaction', [txid, 'yes']))).rpcCode, -3);
    const [block] = await modern.mine(1);
    assert.equal((await modern.rpc.call<{ blockhash: string }>('getrawtransaction', [txid, true])).blockhash, block);
    // Spend every output of it, confirm: without -txindex the node cannot find it any more.
    const outputs = (await modern.rpc.call<{ vout: unknown[] }>('getrawtransaction', [txid, true])).vout.map((_o, vout) => ({ txid, vout }));
    const sweep = modern.wallet.createTx({ inputs: outputs, outputs: [{ address: modern.wallet.newAddress(), value: 100_000_000n }] });
    await modern.rpc.call('sendrawtransaction', [toHex(sweep.raw)]);
    await modern.mine(1);
    const gone = await rpcError(modern.rpc.call('getrawtransaction', [txid]));
    assert.equal(gone.rpcCode, -5);
    assert.match(gone.message, /No such mempool transaction\. Use -txindex/);
    // With -txindex (the legacy stand-in) a fully spent tx is still found.
    const ltx = await legacy.send(legacy.wallet.newAddress(), '5');
    const lout = (await legacy.rpc.call<{ vout: unknown[] }>('getrawtransaction', [ltx, true])).vout.map((_o, vout) => ({ txid: ltx, vout }));
    await legacy.mine(1);
    await legacy.rpc.call('sendrawtransaction', [toHex(legacy.wallet.createTx({ inputs: lout, outputs: [{ address: legacy.wallet.newAddress(), value: 100_000_000n }] }).raw)]);
    await legacy.mine(1);
    assert.match(await legacy.rpc.call<string>('getrawtransaction', [ltx, false]), /^01000000/);
  });

  it('sendrawtransaction: bool second parameter, resend answers the txid, -27 while an output is unspent, -25 once all are spent', async () => {
    const tx = modern.wallet.createTx({ outputs: [{ address: modern.wallet.newAddress(), value: 700_000_000n }] });
    const hex = toHex(tx.raw);
    const typed = await rpcError(modern.rpc.call('sendrawtransaction', [hex, 0]));
    assert.deepEqual([typed.rpcCode, typed.message], [-3, 'Expected type bool, got number']);
    assert.equal(await modern.rpc.call('sendrawtransaction', [hex, false]), tx.txid);
    assert.equal(await modern.rpc.call('sendrawtransaction', [hex]), tx.txid, 'a resend of a mempool tx is a success');
    await modern.mine(1);
    const inChain = await rpcError(modern.rpc.call('sendrawtransaction', [hex]));
    assert.deepEqual([inChain.rpcCode, inChain.message], [-27, 'transaction already in block chain']);
    const spendAll = modern.wallet.createTx({ inputs: tx.outputs.map((_o, vout) => ({ txid: tx.txid, vout })), outputs: [{ address: modern.wallet.newAddress(), value: 600_000_000n }] });
    await modern.rpc.call('sendrawtransaction', [toHex(spendAll.raw)]);
    await modern.mine(1);
    const spent = await rpcError(modern.rpc.call('sendrawtransaction', [hex]));
    assert.deepEqual([spent.rpcCode, spent.message], [-25, 'Missing inputs']);
  });

  it('policy: hard dust rejected, soft dust costs 0.01 DOGE each, fees above 400 DOGE need allowhighfees', async () => {
    const w = modern.wallet;
    const dust = w.createTx({ outputs: [{ address: w.newAddress(), value: 99_999n }] });
    assert.deepEqual(await rpcError(modern.rpc.call('sendrawtransaction', [toHex(dust.raw)])).then((e) => [e.rpcCode, e.message]), [-26, '64: dust']);
    const cheapSoftDust = w.createTx({ outputs: [{ address: w.newAddress(), value: 500_000n }], fee: 900_000n });
    assert.equal((await rpcError(modern.rpc.call('sendrawtransaction', [toHex(cheapSoftDust.raw)]))).message, '66: min relay fee not met');
    const paidSoftDust = w.createTx({ outputs: [{ address: w.newAddress(), value: 500_000n }], fee: 1_100_000n });
    assert.equal(await modern.rpc.call('sendrawtransaction', [toHex(paidSoftDust.raw)]), paidSoftDust.txid);
    const generous = w.createTx({ outputs: [{ address: w.newAddress(), value: 100_000_000n }], fee: 401n * 100_000_000n });
    assert.equal((await rpcError(modern.rpc.call('sendrawtransaction', [toHex(generous.raw)]))).message, '256: absurdly-high-fee');
    assert.equal(await modern.rpc.call('sendrawtransaction', [toHex(generous.raw), true]), generous.txid);
    await modern.mine(1);
  });

  it('testmempoolaccept and getzmqnotifications do not exist: -32601 with HTTP 404', async () => {
    for (const method of ['testmempoolaccept', 'getzmqnotifications']) {
      const answer = await rawRpc(modern.rpcUrl, call(method, []));
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.json, { result: null, error: { code: -32601, message: 'Method not found' }, id: 1 });
    }
  });

  it('getnetworkhashps, getdifficulty, getmininginfo, estimatefee, estimatesmartfee answer; generate needs a wallet', async () => {
    assert.ok((await modern.rpc.call<number>('getnetworkhashps')) > 0);
    assert.equal(typeof (await modern.rpc.call('getdifficulty')), 'number');
    assert.equal((await modern.rpc.call<{ chain: string }>('getmininginfo')).chain, 'regtest');
    assert.equal(await modern.rpc.call('estimatefee', [6]), -1);
    assert.deepEqual(keys(await modern.rpc.call('estimatesmartfee', [6])), ['feerate', 'blocks']);
    assert.equal((await rpcError(modern.rpc.call('generate', [1]))).rpcCode, -32603);
    assert.equal((await rpcError(modern.rpc.call('generatetoaddress', [1, 'nonsense']))).rpcCode, -5);
  });

  it('JSON-RPC over HTTP: batches answer 200 with errors in their slots, a single failure an error status with a JSON body', async () => {
    const batch = await rawRpc(modern.rpcUrl, [call('getblockcount', [], 0), call('nosuchcall', [], 1), call('getblockhash', [-1], 2)]);
    assert.equal(batch.status, 200);
    const replies = batch.json as { result: unknown; error: { code: number } | null; id: number }[];
    assert.equal(replies[0]!.error, null);
    assert.deepEqual([replies[1]!.error?.code, replies[2]!.error?.code], [-32601, -8]);
    assert.ok(batch.text.endsWith('\n'));
    const cases: [unknown, number, number][] = [
      [call('getblockhash', [-1]), 500, -8],
      ['{not json', 500, -32700],
      [{ id: 1, params: [] }, 400, -32600],
      [call('getblockhash', ['x']), 500, -1],
    ];
    for (const [body, status, code] of cases) {
      const answer = await rawRpc(modern.rpcUrl, body);
      assert.deepEqual([answer.status, (answer.json as { error: { code: number } }).error.code], [status, code], JSON.stringify(body));
    }
    assert.equal((await rawRpc(modern.rpcUrl, null, { method: 'GET' })).status, 405);
    assert.equal((await rawRpc(modern.rpcUrl, call('getblockcount'), { auth: null })).status, 401);
    const t0 = Date.now();
    assert.equal((await rawRpc(modern.rpcUrl, call('getblockcount'), { auth: 'outpoint:wrong' })).status, 401);
    assert.ok(Date.now() - t0 >= 240, 'a wrong password waits 250 ms');
  });

  it('cookie: __cookie__:<64 hex>, no newline, in the network datadir, new at each start, gone at stop', async () => {
    const first = await readFile(modern.cookieFile, 'utf8');
    assert.match(first, /^__cookie__:[0-9a-f]{64}$/);
    assert.ok(modern.cookieFile.endsWith('/regtest/.cookie'));
    const viaCookie = new RpcClient({ url: modern.rpcUrl.replace(/\/\/[^@]*@/, '//'), cookieFile: modern.cookieFile, retries: 2, backoffMs: 50 });
    try {
      assert.equal(typeof (await viaCookie.call('getblockcount')), 'number');
      await modern.halt();
      await assert.rejects(stat(modern.cookieFile));
      await modern.resume();
      assert.notEqual(await readFile(modern.cookieFile, 'utf8'), first);
      assert.equal(typeof (await viaCookie.call('getblockcount')), 'number', 'the client re-reads the new cookie');
    } finally {
      viaCookie.close();
    }
  });

  it('ports: RPC 22555 main, 44555 testnet, 18332 regtest (as in our network params)', () => {
    assert.deepEqual(
      [getNetworkParams('DOGE').defaultRpcPort, getNetworkParams('DOGETEST', 'test').defaultRpcPort, getNetworkParams('DOGETEST', 'regtest').defaultRpcPort],
      [22555, 44555, 18332],
    );
  });

  it('-28 while warming up: HTTP 500 for a single call, in its slot for a batch; RpcClient retries through it', async () => {
    const warming = await startDogecoinStandIn({ warmupMs: 1500, zmqTopics: [] }, { waitWarm: false });
    try {
      const single = await rawRpc(warming.rpcUrl, call('getblockcount'));
      assert.equal(single.status, 500);
      assert.deepEqual((single.json as { error: unknown }).error, { code: -28, message: 'Loading block index...' });
      const batch = await rawRpc(warming.rpcUrl, [call('getblockcount')]);
      assert.equal(batch.status, 200);
      assert.equal((batch.json as { error: { code: number } }[])[0]!.error.code, -28);
      await assert.rejects(warming.rpc.call('getblockcount'), (err) => err instanceof RpcUnavailableError && /warming up/.test(err.message));
      const patient = warming.client({ retries: 6, backoffMs: 100 });
      assert.equal(await patient.call('getblockcount'), 0);
    } finally {
      await warming.stop();
    }
  });
});
