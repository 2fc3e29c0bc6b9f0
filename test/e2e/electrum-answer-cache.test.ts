/**
 * The Electrum answer cache (src/electrum/subscriptions/answer-cache.ts) on bitcoind regtest (ZMQ), both engines, the
 * listeners in two worker processes (the changes forwarded to them): get_balance, get_history and listunspent are asked
 * before and after each change, and after each one they come to what the node says (electrum-oracle.ts) and stay so,
 * never kept from before it: a payment to a scripthash never seen, a payment to one with confirmed history, a mempool
 * spend of a confirmed output (hidden from listunspent), a replacement that takes a payment away without touching the
 * script again (only the mempool tx leaving says so), a block confirming them, a reorg putting them back in the mempool
 * and the other branch confirming them. /metrics shows that answers were served from the cache meanwhile.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { formatCoins, parseCoins } from '../../src/core/index.js';
import { startElectrumServe, type ElectrumServe } from '../helpers/electrum-serve.js';
import { nodeElectrumView } from '../helpers/electrum-oracle.js';
import { scriptOf, spendTo, voutTo } from '../helpers/electrum-scenario.js';
import { scripthashOf, type ElectrumTestClient } from '../helpers/electrum-test-client.js';
import { startBitcoind, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines, testEngines } from '../helpers/store-engines.js';
import { waitFor } from '../helpers/wait-for.js';

let btc: RegtestNode;
const engines = new StoreEngines();
const servers: { engine: string; server: ElectrumServe; client?: ElectrumTestClient }[] = [];
const watched: { script: string; sh: string; name: string }[] = [];

before(async () => {
  btc = await startBitcoind({ funded: true });
  for (const engine of testEngines()) {
    const server = await startElectrumServe(btc, (await engines.create(engine)).url, { electrum: { processes: '2' } });
    // Kept before anything else can fail, so that after() stops it.
    const entry: (typeof servers)[number] = { engine, server };
    servers.push(entry);
    await server.caughtUp(btc);
    entry.client = await server.connect();
    await entry.client.request('server.version', ['cache-test', '1.4']);
  }
});

after(async () => {
  for (const { server, client } of servers) {
    client?.close();
    await server.stop();
  }
  await btc?.stop();
  await engines.close();
});

async function watch(name: string): Promise<{ address: string; script: string; sh: string }> {
  const address = await btc.newAddress('bech32');
  const script = await scriptOf(btc, address);
  const sh = scripthashOf(Buffer.from(script, 'hex'));
  watched.push({ script, sh, name });
  return { address, script, sh };
}

/** The three answers of each watched scripthash on one connection. */
async function answers(client: ElectrumTestClient): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const { sh } of watched) {
    out.push(await client.request('blockchain.scripthash.get_balance', [sh]));
    out.push(await client.request('blockchain.scripthash.get_history', [sh]));
    out.push(await client.request('blockchain.scripthash.listunspent', [sh]));
  }
  return out;
}

/**
 * Every server comes to the node's answers (a server that kept an answer from before the change never does), then
 * answers them again, now from its cache, the same.
 */
async function agree(what: string): Promise<void> {
  const views = await nodeElectrumView(btc.rpc, watched.map((w) => w.script));
  const expected = watched.flatMap(({ script }) => {
    const v = views.get(script)!;
    return [{ confirmed: v.confirmed, unconfirmed: v.unconfirmed }, v.history, v.utxos];
  });
  for (const { engine, client: connected } of servers) {
    const client = connected!;
    let last: unknown[] = [];
    await waitFor(async () => {
      last = await answers(client);
      return JSON.stringify(last) === JSON.stringify(expected);
    }, 30_000, `${engine}: ${what}`).catch((error: Error) => {
      assert.deepEqual(last, expected, `${engine}: ${what} (${error.message})`);
    });
    assert.deepEqual(await answers(client), expected, `${engine}: ${what}, asked again`);
  }
}

describe('Electrum answer cache on bitcoind, both engines', () => {
  it('answers after every change as the node says: payments, a mempool spend, a replacement, a block, a reorg', async () => {
    const settled = await watch('paid in a block');
    const fresh = await watch('never seen, then paid in the mempool');
    const replaced = await watch('paid by a tx that is replaced');
    const paid = await btc.send(settled.address, '1.5');
    await btc.mine(1);
    await Promise.all(servers.map(({ server }) => server.caughtUp(btc)));
    await agree('the start');

    await btc.send(fresh.address, '0.4');
    await btc.send(settled.address, '0.3');
    await agree('payments in the mempool');

    await spendTo(btc, paid, await voutTo(btc, paid, settled.script), await btc.newAddress('bech32'));
    await agree('a confirmed output spent in the mempool');

    // A payment from a coin of the wallet, signalling replacement, then the same coin sent elsewhere with a higher fee.
    const [coin] = await btc.wallet.call<{ txid: string; vout: number; amount: number }[]>('listunspent', [1, 9_999_999, [], true, { minimumAmount: 1 }], { exactDecimals: true });
    const amount = parseCoins(String(coin!.amount));
    const pay = async (to: string, fee: bigint): Promise<string> => {
      const raw = await btc.wallet.call<string>('createrawtransaction', [[{ txid: coin!.txid, vout: coin!.vout, sequence: 0xfffffffd }], { [to]: formatCoins(amount - fee) }]);
      const signed = await btc.wallet.call<{ hex: string }>('signrawtransactionwithwallet', [raw]);
      return btc.rpc.call<string>('sendrawtransaction', [signed.hex]);
    };
    await pay(replaced.address, 10_000n);
    await agree('a replaceable payment in the mempool');
    await pay(await btc.newAddress('bech32'), 50_000n);
    await agree('the payment replaced by a tx that does not touch the script');

    const [tip] = await btc.mine(1);
    await agree('a block confirming them');
    await btc.rpc.call('invalidateblock', [tip]);
    await agree('a reorg putting them back in the mempool');
    await btc.mine(2);
    await agree('the other branch confirming them');

    for (const { engine, server } of servers) {
      await waitFor(async () => {
        const text = await (await fetch(`${server.serve.url}/metrics`)).text();
        const hits = text.split('\n').find((l) => l.startsWith('outpoint_electrum_answer_cache_hits_total{'));
        return hits !== undefined && Number(hits.split(' ').at(-1)) >= watched.length * 3 * 8;
      }, 10_000, `${engine}: answers served from the cache (relayed from the workers every second)`);
    }
  });
});
