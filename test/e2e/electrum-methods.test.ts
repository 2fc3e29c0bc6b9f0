/**
 * The Electrum server on bitcoind regtest, both engines (issue 49): every method answered as computed from the node
 * itself (test/helpers/electrum-oracle.ts and the node's own RPC), in protocol 1.4 and 1.6 sessions, over a chain with
 * each kind of address, a mempool chain of three unconfirmed txs and an OP_RETURN output; broadcasts (a tx, a
 * package); negotiation; bad input answered with JSON-RPC errors. One node and one serve process per engine.
 */
import assert from 'node:assert/strict';
import MempoolElectrumClient from '@mempool/electrum-client';
import { after, before, describe, it } from 'node:test';
import { checkFees, checkHeaders, checkScripthashes, checkTransactions, rejectsWith } from '../helpers/electrum-checks.js';
import { nodeElectrumView } from '../helpers/electrum-oracle.js';
import { startElectrumServe, type ElectrumServe } from '../helpers/electrum-serve.js';
import { makeElectrumScenario, scriptOf, type ElectrumScenario } from '../helpers/electrum-scenario.js';
import { scripthashOf } from '../helpers/electrum-test-client.js';
import { startBitcoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines, testEngines } from '../helpers/store-engines.js';

let btc: RegtestNode;
let scenario: ElectrumScenario;
const engines = new StoreEngines();
const servers = new Map<string, ElectrumServe>();

before(async () => {
  btc = await startBitcoind({ funded: true });
  scenario = await makeElectrumScenario(btc);
  for (const engine of testEngines()) servers.set(engine, await startElectrumServe(btc, (await engines.create(engine)).url));
  for (const server of servers.values()) await server.caughtUp(btc);
});

after(async () => {
  for (const server of servers.values()) await server.stop();
  await btc?.stop();
  await engines.close();
});

for (const engine of testEngines()) {
  describe(`Electrum methods on bitcoind (${engine})`, () => {
    for (const version of ['1.4', '1.6'] as const) {
      it(`answers as the node says, protocol ${version}`, async () => {
        const client = await servers.get(engine)!.connect();
        try {
          assert.deepEqual(await client.request('server.version', ['outpoint-test', version === '1.6' ? ['1.4', '1.6'] : '1.4']), ['Outpoint 0.1.0', version]);
          await checkScripthashes(client, btc, scenario, version);
          await checkHeaders(client, btc, version);
          await checkTransactions(client, btc, scenario);
          await checkFees(client, btc, version);
        } finally {
          client.close();
        }
      });
    }

    it('negotiates, describes itself and answers bad input with JSON-RPC errors', async () => {
      const client = await servers.get(engine)!.connect();
      try {
        assert.equal(await client.request('server.ping'), null, 'a request before server.version is served as 1.4');
        assert.deepEqual(await client.request('server.version', ['x', '1.4.2', 'extra', 7]), ['Outpoint 0.1.0', '1.4.2']);
        await rejectsWith(client.request('server.version', ['x', '1.4']), 1, /already/);
        const features = await client.request<Record<string, unknown>>('server.features');
        assert.equal(features.genesis_hash, await btc.rpc.call('getblockhash', [0]));
        assert.deepEqual([features.hash_function, features.protocol_min, features.protocol_max, features.pruning], ['sha256', '1.4', '1.6', null]);
        assert.equal(typeof await client.request('server.banner'), 'string');
        assert.equal(await client.request('server.donation_address'), '');
        assert.deepEqual(await client.request('server.peers.subscribe'), []);
        await rejectsWith(client.request('no.such.method'), -32601);
        await rejectsWith(client.request('blockchain.scripthash.get_balance', []), -32602);
        await rejectsWith(client.request('blockchain.scripthash.get_balance', ['zz']), 1);
        await rejectsWith(client.request('blockchain.scripthash.get_balance', { nope: 1 }), -32602);
        await rejectsWith(client.request('blockchain.transaction.broadcast_package', [[]]), -32601, undefined);
        client.sendRaw('{"id": 1, "method": ');
        assert.deepEqual(await client.nextMessage((m) => (m as { error?: { code: number } }).error?.code === -32700), { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
        const n = client.received.length;
        client.sendRaw('[{"id":"a","method":"server.ping"},{"id":"b","method":"x"},{"method":"server.ping"},7]');
        const batch = await client.nextMessage(Array.isArray, n) as { id: string | null; result?: unknown; error?: { code: number } }[];
        assert.deepEqual(batch.map((r) => [r.id, r.error?.code ?? null]).sort(), [['a', null], ['b', -32601], [null, -32600]].sort(), 'a notification gets no answer');
        // An unsupported version closes the connection after its answer.
        const other = await servers.get(engine)!.connect();
        await rejectsWith(other.request('server.version', ['x', '1.2']), 1, /Unsupported protocol version/);
        await waitFor(() => other.closed, 10_000, 'the connection closed');
      } finally {
        client.close();
      }
    });

    it('@mempool/electrum-client (mempool.space\'s backend) reads balances, histories and unspent outputs, one by one and batched', async () => {
      const client = new MempoolElectrumClient(servers.get(engine)!.ports.tcp!, '127.0.0.1', 'tcp', null, { onLog: () => undefined });
      await client.initElectrum({ client: 'mempool-v2', version: '1.4' });
      try {
        assert.deepEqual(client.versionInfo, ['Outpoint 0.1.0', '1.4']);
        const views = await nodeElectrumView(btc.rpc, scenario.scripts);
        const hashes = scenario.scripts.map((s) => scripthashOf(Buffer.from(s, 'hex')));
        for (const [i, script] of scenario.scripts.entries()) {
          const view = views.get(script)!;
          assert.deepEqual(await client.blockchainScripthash_getBalance(hashes[i]!), { confirmed: view.confirmed, unconfirmed: view.unconfirmed });
          assert.deepEqual(await client.blockchainScripthash_getHistory(hashes[i]!), view.history);
          assert.deepEqual(await client.blockchainScripthash_getMempool(hashes[i]!), view.mempool);
          assert.deepEqual(await client.blockchainScripthash_listunspent(hashes[i]!), view.utxos);
        }
        const balances = await client.blockchainScripthash_getBalanceBatch(hashes);
        assert.deepEqual(balances.map((b) => [b.param, b.result]), scenario.scripts.map((s, i) => [hashes[i], { confirmed: views.get(s)!.confirmed, unconfirmed: views.get(s)!.unconfirmed }]));
        const histories = await client.blockchainScripthash_getHistoryBatch(hashes);
        assert.deepEqual(histories.map((h) => [h.param, h.result]), scenario.scripts.map((s, i) => [hashes[i], views.get(s)!.history]));
        const verbose = await client.blockchainTransaction_get(scenario.confirmed.txid, true) as { txid: string; confirmations: number };
        assert.equal(verbose.txid, scenario.confirmed.txid);
      } finally {
        client.close();
      }
    });

    it('broadcasts a tx and (1.6) a package through the node', async () => {
      const client = await servers.get(engine)!.connect();
      try {
        await client.request('server.version', ['x', '1.6']);
        const to = await btc.newAddress('bech32');
        const raw = await btc.wallet.call<string>('createrawtransaction', [[], { [to]: '0.3' }]);
        const signed = await btc.wallet.call<{ hex: string }>('signrawtransactionwithwallet', [(await btc.wallet.call<{ hex: string }>('fundrawtransaction', [raw, { lockUnspents: true }])).hex]);
        const txid = await client.request<string>('blockchain.transaction.broadcast', [signed.hex]);
        assert.ok(await btc.rpc.call('getmempoolentry', [txid]));
        assert.equal(await client.request('blockchain.transaction.broadcast', [signed.hex]), txid, 'again: the node has it');
        await rejectsWith(client.request('blockchain.transaction.broadcast', ['0100']), 1, /rejected by network rules/);
        // A package: a parent paying the wallet and a child spending it, submitted together.
        const script = await scriptOf(btc, to);
        const parentRaw = await btc.wallet.call<string>('createrawtransaction', [[], { [await btc.newAddress('bech32')]: '0.2' }]);
        const parent = await btc.wallet.call<{ hex: string }>('signrawtransactionwithwallet', [(await btc.wallet.call<{ hex: string }>('fundrawtransaction', [parentRaw, { changePosition: 1, lockUnspents: true }])).hex]);
        const parentTx = await btc.rpc.call<{ txid: string; vout: { value: number }[] }>('decoderawtransaction', [parent.hex]);
        const childRaw = await btc.wallet.call<string>('createrawtransaction', [[{ txid: parentTx.txid, vout: 0 }], { [to]: '0.199' }]);
        const child = await btc.wallet.call<{ hex: string; complete: boolean }>('signrawtransactionwithwallet', [childRaw, [{ txid: parentTx.txid, vout: 0, scriptPubKey: (await btc.rpc.call<{ vout: { scriptPubKey: { hex: string } }[] }>('decoderawtransaction', [parent.hex])).vout[0]!.scriptPubKey.hex, amount: 0.2 }]]);
        assert.ok(child.complete);
        assert.deepEqual(await client.request('blockchain.transaction.broadcast_package', [[parent.hex, child.hex]]), { success: true });
        assert.ok(await btc.rpc.call('getmempoolentry', [parentTx.txid]));
        void script;
      } finally {
        client.close();
      }
    });
  });
}
