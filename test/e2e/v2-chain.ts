/**
 * The chain every v2 API test file reads: litecoind regtest with 113 payments to one address of a second wallet
 * (60 in block B1, 50 two blocks later, 3 in the mempool), indexed on SQLite and PostgreSQL with one HTTP app per
 * engine (v2-fixture.ts). Each test file starts its own, so files run alone and in any order.
 */
import assert from 'node:assert/strict';
import { formatCoins } from '../../src/core/index.js';
import type { RpcClient } from '../../src/node/rpc/rpc-client.js';
import { startLitecoind, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines } from '../helpers/store-engines.js';
import { appsOnBothEngines, sync, type EngineApp } from './v2-fixture.js';

export const N = 'LTCTEST';
export const V2 = '/api/v2';

export interface Payment {
  readonly txid: string;
  readonly amount: bigint;
  readonly block: 'B1' | 'B2' | 'mempool';
}

export interface NodeTx {
  txid: string;
  hex: string;
  size: number;
  version: number;
  locktime: number;
  blockhash?: string;
  confirmations?: number;
  vin: { txid?: string; vout?: number; coinbase?: string }[];
  vout: { value: string; n: number; scriptPubKey: { hex: string; address?: string; addresses?: string[]; type: string } }[];
}

export interface V2Chain {
  readonly node: RegtestNode;
  readonly engines: StoreEngines;
  readonly apps: EngineApp[];
  /** The receiving wallet and its address that all payments go to. */
  readonly recv: RpcClient;
  readonly addrA: string;
  /** In payment order; a test may drop one it double-spent. */
  readonly paymentsA: Payment[];
  readonly b1Hash: string;
  stop(): Promise<void>;
}

export const sum = (items: readonly { amount: bigint }[]): bigint => items.reduce((s, p) => s + p.amount, 0n);

export function nodeTx(node: RegtestNode, txid: string): Promise<NodeTx> {
  return node.rpc.call<NodeTx>('getrawtransaction', [txid, true], { exactDecimals: true });
}

/** A wallet-signed tx spending `outpoint` to a fresh address, not broadcast. */
export async function signedSpend(node: RegtestNode, wallet: RpcClient, outpoint: { txid: string; vout: number }, value: bigint, fee = 100_000n): Promise<{ hex: string; txid: string }> {
  const outputs = { [await node.newAddress('bech32')]: formatCoins(value - fee) };
  const raw = await wallet.call<string>('createrawtransaction', [[outpoint], outputs]);
  const signed = await wallet.call<{ hex: string; complete: boolean }>('signrawtransactionwithwallet', [raw]);
  assert.ok(signed.complete);
  const { txid } = await node.rpc.call<{ txid: string }>('decoderawtransaction', [signed.hex]);
  return { hex: signed.hex, txid };
}

async function pay(node: RegtestNode, address: string, amounts: bigint[]): Promise<string[]> {
  const replies = await node.wallet.batch<string>(amounts.map((a) => ({ method: 'sendtoaddress', params: [address, formatCoins(a)] })));
  return replies.map((r) => {
    if (r instanceof Error) throw r;
    return r;
  });
}

export async function startV2Chain(): Promise<V2Chain> {
  const node = await startLitecoind({ funded: true });
  const engines = new StoreEngines();
  const stop = async (): Promise<void> => {
    for (const a of apps) await a.app.close();
    await node.stop();
    await engines.close();
  };
  const apps: EngineApp[] = [];
  try {
    apps.push(...(await appsOnBothEngines(engines, node)));
    // Many confirmed coins so 113 wallet sends never chain unconfirmed change past the mempool's ancestor limit.
    await node.mine(20);
    const fan: Record<string, string> = {};
    for (let i = 0; i < 130; i++) fan[await node.newAddress('bech32')] = '0.5';
    await node.wallet.call('sendmany', ['', fan]);
    await node.mine(1);
    const recv = await node.createWallet('recv');
    const addrA = await recv.call<string>('getnewaddress', ['', 'bech32']);
    const paymentsA: Payment[] = [];
    const amounts = (from: number, n: number) => Array.from({ length: n }, (_, i) => 1_000_000n + BigInt(from + i) * 10_000n);
    const payAll = async (from: number, n: number, block: Payment['block']): Promise<void> => {
      for (const [i, txid] of (await pay(node, addrA, amounts(from, n))).entries()) paymentsA.push({ txid, amount: amounts(from, n)[i]!, block });
    };
    await payAll(0, 60, 'B1');
    const [b1Hash] = (await node.mine(1)) as [string];
    await node.mine(2);
    await payAll(60, 50, 'B2');
    await node.mine(1);
    await payAll(110, 3, 'mempool');
    await sync(apps);
    return { node, engines, apps, recv, addrA, paymentsA, b1Hash, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
