/**
 * blockchain.scripthash.* (protocol-methods.rst): balance, history, mempool, unspent outputs, and the status
 * subscription. These are the hot methods (a wallet asks them for every address): their answers are written as JSON
 * text directly, amounts exact (bigint digits).
 */
import type { ElectrumHistoryItem } from '../../services/electrum/script-status.js';
import { V1_4_2 } from '../protocol/protocol-version.js';
import type { MethodSpec } from './method-spec.js';
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

export const SCRIPTHASH_METHODS: readonly MethodSpec[] = [
  {
    name: 'blockchain.scripthash.get_balance', params: ['scripthash'], required: 1,
    async handle({ net }, args) {
      const b = await net.scripthashes.balance(scripthash(args));
      return `{"confirmed":${b.confirmed},"unconfirmed":${b.unconfirmed}}`;
    },
  },
  { name: 'blockchain.scripthash.get_history', params: ['scripthash'], required: 1, handle: async ({ net }, args) => historyJson(await net.scripthashes.history(scripthash(args))) },
  { name: 'blockchain.scripthash.get_mempool', params: ['scripthash'], required: 1, handle: async ({ net }, args) => historyJson(await net.scripthashes.mempool(scripthash(args))) },
  {
    name: 'blockchain.scripthash.listunspent', params: ['scripthash'], required: 1,
    async handle({ net }, args) {
      const utxos = await net.scripthashes.unspent(scripthash(args));
      let out = '[';
      for (let i = 0; i < utxos.length; i++) {
        const u = utxos[i]!;
        out += `${i > 0 ? ',' : ''}{"tx_hash":"${u.tx_hash}","tx_pos":${u.tx_pos},"height":${u.height},"value":${u.value}}`;
      }
      return `${out}]`;
    },
  },
  { name: 'blockchain.scripthash.subscribe', params: ['scripthash'], required: 1, handle: async ({ subs }, args) => JSON.stringify(await subs.subscribeStatus(scripthash(args))) },
  {
    name: 'blockchain.scripthash.unsubscribe', params: ['scripthash'], required: 1, since: V1_4_2,
    handle: ({ subs }, args) => JSON.stringify(subs.unsubscribeStatus(scripthash(args))),
  },
];
