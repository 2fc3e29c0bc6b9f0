/**
 * blockchain.scripthash.* (protocol-methods.rst): balance, history, mempool, unspent outputs, and the status
 * subscription. These are the hot methods (a wallet asks them for every address): their answers are written as JSON
 * text directly, amounts exact (bigint digits), and balances, histories and unspent lists kept until their scripthash
 * changes (answer-cache.ts).
 */
import type { ElectrumHistoryItem } from '../../services/electrum/script-status.js';
import { V1_4_2 } from '../protocol/protocol-version.js';
import type { AnswerKind } from '../subscriptions/answer-cache.js';
import type { MethodContext, MethodSpec } from './method-spec.js';
import { hash32 } from './param-checks.js';

const scripthash = (args: readonly unknown[]): string => hash32(args[0], 'scripthash');

function historyJson(items: readonly ElectrumHistoryItem[]): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (i > 0) out += ',';
    out += item.fee === undefined
      ? `{"tx_hash":"${item.tx_hash}","height":${item.height}}`
      : `{"tx_hash":"${item.tx_hash}","height":${item.height},"fee":${item.fee}}`;
  }
  return `${out}]`;
}

/**
 * The answer kept for this scripthash (answer-cache.ts; the network's sync gate still checked), else `read` then kept.
 * The generation is taken before the read: a change arriving meanwhile keeps the answer out of the cache.
 */
async function kept(ctx: MethodContext, kind: AnswerKind, args: readonly unknown[], read: (scripthash: string) => Promise<{ json: string; pending: boolean }>): Promise<string> {
  const key = scripthash(args);
  const text = ctx.answers.get(kind, key);
  if (text !== undefined) {
    const gate = ctx.net.scripthashes.ready();
    if (gate) await gate;
    return text;
  }
  const generation = ctx.answers.generation;
  const { json, pending } = await read(key);
  ctx.answers.put(kind, key, json, pending, generation);
  return json;
}

export const SCRIPTHASH_METHODS: readonly MethodSpec[] = [
  {
    name: 'blockchain.scripthash.get_balance', params: ['scripthash'], required: 1,
    handle: (ctx, args) => kept(ctx, 'balance', args, async (key) => {
      const b = await ctx.net.scripthashes.balance(key);
      return { json: `{"confirmed":${b.confirmed},"unconfirmed":${b.unconfirmed}}`, pending: b.pending };
    }),
  },
  {
    name: 'blockchain.scripthash.get_history', params: ['scripthash'], required: 1,
    handle: (ctx, args) => kept(ctx, 'history', args, async (key) => {
      const items = await ctx.net.scripthashes.history(key);
      return { json: historyJson(items), pending: items.some((i) => i.height <= 0) };
    }),
  },
  { name: 'blockchain.scripthash.get_mempool', params: ['scripthash'], required: 1, handle: async ({ net }, args) => historyJson(await net.scripthashes.mempool(scripthash(args))) },
  {
    name: 'blockchain.scripthash.listunspent', params: ['scripthash'], required: 1,
    handle: (ctx, args) => kept(ctx, 'unspent', args, async (key) => {
      const { utxos, pending } = await ctx.net.scripthashes.unspent(key);
      let out = '[';
      for (let i = 0; i < utxos.length; i++) {
        const u = utxos[i]!;
        out += `${i > 0 ? ',' : ''}{"tx_hash":"${u.tx_hash}","tx_pos":${u.tx_pos},"height":${u.height},"value":${u.value}}`;
      }
      return { json: `${out}]`, pending };
    }),
  },
  { name: 'blockchain.scripthash.subscribe', params: ['scripthash'], required: 1, handle: async ({ subs }, args) => JSON.stringify(await subs.subscribeStatus(scripthash(args))) },
  {
    name: 'blockchain.scripthash.unsubscribe', params: ['scripthash'], required: 1, since: V1_4_2,
    handle: ({ subs }, args) => JSON.stringify(subs.unsubscribeStatus(scripthash(args))),
  },
];
