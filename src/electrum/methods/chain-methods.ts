/**
 * Headers and fees (protocol-methods.rst): blockchain.block.header(s) with checkpoint proofs, headers.subscribe,
 * estimatefee (with `mode` from 1.6), relayfee (until 1.6), mempool.get_fee_histogram, mempool.get_info (from 1.6).
 * Fulcrum's limits and wording: at most `maxHeaders` (2,016) headers per request, heights below 10 million.
 */
import { ElectrumRequestError } from '../../services/electrum/electrum-request-error.js';
import { atLeast, V1_6 } from '../protocol/protocol-version.js';
import type { MethodSpec } from './method-spec.js';
import { count, shortText } from './param-checks.js';

const MAX_HEIGHT = 10_000_000;

export const CHAIN_METHODS: readonly MethodSpec[] = [
  {
    name: 'blockchain.block.header', params: ['height', 'cp_height'], required: 1,
    async handle({ net }, args) {
      const height = count(args[0], 'height', MAX_HEIGHT - 1);
      const cp = args[1] === undefined ? 0 : count(args[1], 'cp_height', MAX_HEIGHT - 1);
      if (cp === 0) return JSON.stringify(await net.chain.header(height));
      await net.chain.checkCheckpoint(height, cp);
      const header = await net.chain.header(height);
      const { branch, root } = await net.chain.proof(height, cp);
      return JSON.stringify({ branch, header, root });
    },
  },
  {
    name: 'blockchain.block.headers', params: ['start_height', 'count', 'cp_height'], required: 2,
    async handle({ net, server, session }, args) {
      const start = count(args[0], 'start_height', MAX_HEIGHT - 1);
      const wanted = count(args[1], 'count', MAX_HEIGHT - 1);
      const cp = args[2] === undefined ? 0 : count(args[2], 'cp_height', MAX_HEIGHT - 1);
      const tip = await net.chain.tipHeight();
      const n = Math.max(0, Math.min(tip + 1 - start, wanted, server.maxHeaders));
      if (n > 0 && cp > 0) await net.chain.checkCheckpoint(start + n - 1, cp, 'header height + (count - 1)');
      const headers = (await net.chain.headers(start, n)).map((h) => Buffer.from(h).toString('hex'));
      const out: Record<string, unknown> = { count: headers.length, max: server.maxHeaders };
      if (atLeast(session.version, V1_6)) out.headers = headers;
      else out.hex = headers.join('');
      if (headers.length > 0 && cp > 0) Object.assign(out, await net.chain.proof(start + headers.length - 1, cp));
      return JSON.stringify(out);
    },
  },
  {
    name: 'blockchain.headers.subscribe', params: [], required: 0,
    async handle({ net, subs }) {
      const tip = await net.chain.tip();
      if (!tip) throw new ElectrumRequestError('the index has no block yet');
      subs.subscribeHeaders();
      return JSON.stringify(tip);
    },
  },
  {
    name: 'blockchain.estimatefee', params: ['number', 'mode'], required: 1,
    async handle({ net, session }, args) {
      const target = count(args[0], 'number', 1008);
      // The mode is 1.6's; an older session's second argument is ignored (as ElectrumX does).
      const mode = args[1] === undefined || args[1] === null || !atLeast(session.version, V1_6) ? null : shortText(args[1], 'mode', 20).toUpperCase();
      return JSON.stringify(await net.fees.estimateFee(target, mode));
    },
  },
  { name: 'blockchain.relayfee', params: [], required: 0, until: V1_6, handle: async ({ net }) => JSON.stringify(await net.fees.relayFee()) },
  { name: 'mempool.get_fee_histogram', params: [], required: 0, handle: async ({ net }) => JSON.stringify(await net.fees.histogram()) },
  { name: 'mempool.get_info', params: [], required: 0, since: V1_6, handle: async ({ net }) => JSON.stringify(await net.fees.mempoolFees()) },
];
