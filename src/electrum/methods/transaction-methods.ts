/** blockchain.transaction.* (protocol-methods.rst): raw and verbose txs, merkle proofs, broadcasts. */
import { jsonOf } from '../protocol/json-rpc.js';
import { ElectrumRpcError, RPC_CODES } from '../protocol/rpc-errors.js';
import { V1_6 } from '../protocol/protocol-version.js';
import type { MethodSpec } from './method-spec.js';
import { count, flag, hash32, txHex } from './param-checks.js';

/** A package holds at most this many txs (Bitcoin Core's MAX_PACKAGE_COUNT). */
const MAX_PACKAGE = 25;

export const TRANSACTION_METHODS: readonly MethodSpec[] = [
  {
    name: 'blockchain.transaction.get', params: ['tx_hash', 'verbose'], required: 1,
    async handle({ net }, args) {
      const txid = hash32(args[0], 'tx hash');
      const verbose = args[1] === undefined ? false : flag(args[1], 'verbose');
      return verbose ? jsonOf(await net.txs.verbose(txid)) : JSON.stringify(await net.txs.raw(txid));
    },
  },
  {
    name: 'blockchain.transaction.get_merkle', params: ['tx_hash', 'height'], required: 1,
    async handle({ net }, args) {
      const txid = hash32(args[0], 'tx hash');
      return JSON.stringify(await net.txs.merkle(txid, args[1] === undefined ? null : count(args[1], 'height')));
    },
  },
  {
    name: 'blockchain.transaction.id_from_pos', params: ['height', 'tx_pos', 'merkle'], required: 2,
    async handle({ net }, args) {
      const merkle = args[2] === undefined ? false : flag(args[2], 'merkle');
      return JSON.stringify(await net.txs.idFromPos(count(args[0], 'height'), count(args[1], 'tx_pos', 999_999_999), merkle));
    },
  },
  {
    name: 'blockchain.transaction.broadcast', params: ['raw_tx'], required: 1,
    handle: async ({ net, server }, args) => JSON.stringify(await net.txs.broadcast(txHex(args[0], server.maxTxBytes))),
  },
  {
    name: 'blockchain.transaction.broadcast_package', params: ['raw_txs', 'verbose'], required: 1, since: V1_6,
    async handle({ net, server }, args) {
      const list = args[0];
      if (!Array.isArray(list) || list.length === 0 || list.length > MAX_PACKAGE) {
        throw new ElectrumRpcError(RPC_CODES.badRequest, `Invalid raw_txs argument; expected a list of 1 to ${MAX_PACKAGE} hex-encoded transactions`);
      }
      const hexes = list.map((tx) => txHex(tx, server.maxTxBytes));
      return jsonOf(await net.txs.broadcastPackage(hexes, args[1] === undefined ? false : flag(args[1], 'verbose')));
    },
  },
];
