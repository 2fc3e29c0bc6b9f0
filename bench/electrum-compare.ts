/**
 * Outpoint's Electrum answers against Fulcrum's on the same node and chain (issue 49: "every answer equal to
 * Fulcrum's"): for each scripthash its balance, history, mempool, unspent outputs and status; headers one by one, in
 * chunks (1.4's hex and 1.6's list) and with checkpoint proofs; raw and verbose txs, merkle branches, txids by
 * position; fee figures; what server.features says of the chain. Every difference is listed.
 */
import { isDeepStrictEqual } from 'node:util';
import { ElectrumClient } from './electrum-client.js';

export interface CompareInput {
  readonly scripthashes: readonly string[];
  /** Confirmed txids with their heights. */
  readonly txs: readonly { readonly txid: string; readonly height: number }[];
  readonly tip: number;
}

export interface CompareReport {
  readonly compared: number;
  readonly differences: string[];
}

type Ask = readonly [method: string, params: readonly unknown[]];

async function both(servers: readonly ElectrumClient[], [method, params]: Ask): Promise<[unknown, unknown]> {
  const answer = (c: ElectrumClient): Promise<unknown> => c.request(method, params).catch((error: Error) => ({ error: error.message.replace(/^[^:]*: /, '') }));
  return Promise.all([answer(servers[0]!), answer(servers[1]!)]) as Promise<[unknown, unknown]>;
}

/** `a` and `b`: Fulcrum's and Outpoint's host:port. Sessions in 1.4 and 1.6. */
export async function compareServers(a: { host: string; port: number }, b: { host: string; port: number }, input: CompareInput): Promise<CompareReport> {
  const sessions: Record<'1.4' | '1.6', ElectrumClient[]> = { '1.4': [], '1.6': [] };
  for (const version of ['1.4', '1.6'] as const) {
    for (const s of [a, b]) {
      const client = await ElectrumClient.connect(s.host, s.port);
      await client.request('server.version', ['compare', version]);
      sessions[version].push(client);
    }
  }
  const differences: string[] = [];
  let compared = 0;
  const check = async (version: '1.4' | '1.6', ask: Ask, pick: (v: unknown) => unknown = (v) => v): Promise<void> => {
    const [theirs, ours] = await both(sessions[version], ask);
    compared++;
    if (!isDeepStrictEqual(pick(theirs), pick(ours))) {
      differences.push(`${version} ${ask[0]}(${JSON.stringify(ask[1]).slice(1, -1).slice(0, 90)}): Fulcrum ${JSON.stringify(theirs).slice(0, 200)}, Outpoint ${JSON.stringify(ours).slice(0, 200)}`);
    }
  };
  try {
    const asks: [('1.4' | '1.6'), Ask][] = [];
    for (const sh of input.scripthashes) {
      for (const method of ['get_balance', 'get_history', 'get_mempool', 'listunspent', 'subscribe']) asks.push(['1.4', [`blockchain.scripthash.${method}`, [sh]]]);
    }
    for (const version of ['1.4', '1.6'] as const) {
      asks.push([version, ['blockchain.headers.subscribe', []]], [version, ['blockchain.block.headers', [0, 2016]]], [version, ['blockchain.block.headers', [input.tip - 5, 100]]],
        [version, ['blockchain.block.headers', [10, 20, input.tip]]], [version, ['blockchain.estimatefee', [2]]], [version, ['mempool.get_fee_histogram', []]]);
    }
    asks.push(['1.4', ['blockchain.relayfee', []]], ['1.6', ['mempool.get_info', []]], ['1.6', ['blockchain.estimatefee', [6, 'economical']]]);
    for (const h of [0, 1, Math.floor(input.tip / 2), input.tip]) asks.push(['1.4', ['blockchain.block.header', [h]]], ['1.4', ['blockchain.block.header', [h, input.tip]]]);
    for (const { txid, height } of input.txs) {
      asks.push(['1.4', ['blockchain.transaction.get', [txid]]], ['1.4', ['blockchain.transaction.get_merkle', [txid, height]]]);
    }
    for (const { txid } of input.txs.slice(0, 20)) asks.push(['1.4', ['blockchain.transaction.get', [txid, true]]]);
    for (const { height } of input.txs.slice(0, 50)) asks.push(['1.4', ['blockchain.transaction.id_from_pos', [height, 1, true]]], ['1.4', ['blockchain.transaction.id_from_pos', [height, 0]]]);
    for (let i = 0; i < asks.length; i += 256) await Promise.all(asks.slice(i, i + 256).map(([version, ask]) => check(version, ask)));
    const chainOf = (f: unknown): unknown => {
      const x = f as Record<string, unknown>;
      return [x.genesis_hash, x.hash_function, x.protocol_min, x.protocol_max, x.pruning];
    };
    await check('1.6', ['server.features', []], chainOf);
    return { compared, differences };
  } finally {
    for (const c of [...sessions['1.4'], ...sessions['1.6']]) c.close();
  }
}
