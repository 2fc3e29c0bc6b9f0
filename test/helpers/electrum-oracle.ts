/**
 * What an Electrum server must answer for some scripts, computed from the node alone (its main chain block by block,
 * its mempool with fees and in-mempool parents, amounts exact): each script's history in the protocol's order
 * (confirmed by height and position; mempool height 0 before -1, then by txid, with fees), its status, balance and
 * unspent outputs (confirmed in chain order, then mempool outputs as Fulcrum orders them). protocol-basics.rst, Status.
 */
import { createHash } from 'node:crypto';
import { parseCoins } from '../../src/core/index.js';
import type { RpcClient } from '../../src/node/rpc/rpc-client.js';

interface NodeTx {
  readonly txid: string;
  readonly vin: readonly { txid?: string; vout?: number }[];
  readonly vout: readonly { n: number; value?: string | number; scriptPubKey: { hex: string } }[];
}

export interface OracleItem {
  readonly tx_hash: string;
  readonly height: number;
  readonly fee?: number;
}

export interface OracleUtxo {
  readonly tx_hash: string;
  readonly tx_pos: number;
  readonly height: number;
  readonly value: number;
}

export interface ScriptView {
  readonly history: OracleItem[];
  readonly mempool: OracleItem[];
  readonly status: string | null;
  readonly confirmed: number;
  readonly unconfirmed: number;
  readonly utxos: OracleUtxo[];
}

export function statusOf(items: readonly OracleItem[]): string | null {
  return items.length === 0 ? null : createHash('sha256').update(items.map((i) => `${i.tx_hash}:${i.height}:`).join('')).digest('hex');
}

/** Scripts as hex; the view of each. */
export async function nodeElectrumView(rpc: RpcClient, scripts: readonly string[]): Promise<Map<string, ScriptView>> {
  const wanted = new Set(scripts);
  const outputs = new Map<string, { script: string; value: bigint; height: number; position: number; parentUnconfirmed: boolean }>();
  const confirmed = new Map(scripts.map((s) => [s, [] as OracleItem[]]));
  const pool = new Map(scripts.map((s) => [s, [] as OracleItem[]]));
  const spentInMempool = new Set<string>();
  const visit = (tx: NodeTx, height: number, position: number, fee: bigint | null, parentUnconfirmed: boolean): void => {
    const touched = new Set<string>();
    for (const input of tx.vin) {
      if (input.txid === undefined) continue;
      const key = `${input.txid}:${input.vout}`;
      const prev = outputs.get(key);
      if (height < 0) spentInMempool.add(key);
      else outputs.delete(key);
      if (prev && wanted.has(prev.script)) touched.add(prev.script);
    }
    for (const out of tx.vout) {
      if (out.value === undefined) continue;
      const script = out.scriptPubKey.hex;
      outputs.set(`${tx.txid}:${out.n}`, { script, value: parseCoins(String(out.value)), height, position, parentUnconfirmed });
      if (wanted.has(script)) touched.add(script);
    }
    for (const script of touched) {
      if (height >= 0) confirmed.get(script)!.push({ tx_hash: tx.txid, height });
      else pool.get(script)!.push({ tx_hash: tx.txid, height: parentUnconfirmed ? -1 : 0, fee: Number(fee) });
    }
  };
  const tip = await rpc.call<number>('getblockcount');
  for (let h = 0; h <= tip; h++) {
    const block = await rpc.call<{ tx: NodeTx[] }>('getblock', [await rpc.call<string>('getblockhash', [h]), 2], { exactDecimals: true });
    block.tx.forEach((tx, i) => visit(tx, h, i, null, false));
  }
  const entries = await rpc.call<Record<string, { depends: string[]; fees: { base: string | number } }>>('getrawmempool', [true], { exactDecimals: true });
  const done = new Set<string>();
  const visitMempool = async (txid: string): Promise<void> => {
    if (done.has(txid) || !entries[txid]) return;
    done.add(txid);
    for (const parent of entries[txid].depends) await visitMempool(parent);
    const tx = await rpc.call<NodeTx>('getrawtransaction', [txid, true], { exactDecimals: true });
    visit(tx, -1, 0, parseCoins(String(entries[txid].fees.base)), entries[txid].depends.length > 0);
  };
  for (const txid of Object.keys(entries).sort()) await visitMempool(txid);
  const views = new Map<string, ScriptView>();
  for (const script of scripts) {
    const mempool = pool.get(script)!.sort((a, b) => b.height - a.height || (a.tx_hash < b.tx_hash ? -1 : 1));
    const history = [...confirmed.get(script)!, ...mempool];
    const mine = [...outputs].filter(([, o]) => o.script === script).map(([key, o]) => ({ key, ...o }));
    const utxos = mine.filter((o) => !spentInMempool.has(o.key))
      .sort((a, b) => (a.height < 0 ? 1 : 0) - (b.height < 0 ? 1 : 0) || (a.height >= 0 ? a.height - b.height || a.position - b.position : Number(a.parentUnconfirmed) - Number(b.parentUnconfirmed))
        || Number(a.key.split(':')[1]) - Number(b.key.split(':')[1]) || Number(a.value - b.value) || (a.key < b.key ? -1 : 1))
      .map((o) => ({ tx_hash: o.key.split(':')[0]!, tx_pos: Number(o.key.split(':')[1]), height: Math.max(0, o.height), value: Number(o.value) }));
    const confirmedSum = mine.filter((o) => o.height >= 0).reduce((s, o) => s + o.value, 0n);
    const unconfirmedSum = mine.filter((o) => o.height < 0 && !spentInMempool.has(o.key)).reduce((s, o) => s + o.value, 0n)
      - mine.filter((o) => o.height >= 0 && spentInMempool.has(o.key)).reduce((s, o) => s + o.value, 0n);
    views.set(script, { history, mempool, status: statusOf(history), confirmed: Number(confirmedSum), unconfirmed: Number(unconfirmedSum), utxos });
  }
  return views;
}
