import type { JSONSchema } from 'json-schema-to-ts';
import { arr, nullable, nullableObj, obj, type RouteRequest, type Schema } from '../../shared/schema-kit.js';
import { amount, int, str, V3P, v3Params, v3Route } from './v3-schema-kit.js';

const wallet = {
  type: 'string',
  minLength: 1,
  maxLength: 1000,
  description: 'An extended public key (xpub/ypub/zpub, tpub/upub/vpub, Ltub/Mtub, dgub: the prefix implies the script) or an output descriptor pkh/sh(wpkh)/wpkh/tr(KEY/…/*) with optional <0;1> and #checksum, URL-encoded as one path segment',
} as const;
const walletParams = v3Params({ network: V3P.network, wallet }, ['network', 'wallet']);
const pageParams = v3Params({ network: V3P.network, wallet, page: V3P.page }, ['network', 'wallet']);
const gapQuery = {
  type: 'object',
  properties: { gap: { type: 'string', maxLength: 12, description: 'Unused addresses in a row that end the scan of a chain: 1 to 1000 (default 20)' } },
} as const;
const addressRef = { address: str, path: { type: 'string', description: 'Derivation path from the key: chain/index, e.g. 0/5' } };

/** A wallet route: its params typed as written, and the `?gap=` query every wallet read takes. */
function walletRoute<const Params extends JSONSchema>(opts: RouteRequest<Params, undefined> & { data: Schema }): ReturnType<typeof v3Route<Params>> & { readonly querystring: typeof gapQuery } {
  return { ...v3Route(opts), querystring: gapQuery };
}

export const walletSummarySchema = walletRoute({
  summary: 'A wallet (extended public key or descriptor): balances, counts and the next unused addresses',
  tag: 'wallet',
  params: walletParams,
  data: obj({
    confirmed_balance: amount,
    unconfirmed_balance: amount,
    confirmed_received: amount,
    confirmed_sent: amount,
    txs_total: int,
    used_addresses: int,
    next_receive_address: obj(addressRef),
    next_change_address: nullableObj(addressRef),
    descriptor: { type: 'string', description: 'Normalised descriptor with its checksum' },
    gap: int,
  }),
});

export const walletTransactionsSchema = walletRoute({
  summary: "A wallet's transactions, newest first (mempool first), 10 per page, with the wallet's net",
  tag: 'wallet',
  params: pageParams,
  data: obj({ transactions: arr(obj({ hash: str, time: int, block: nullable('integer'), balance_change: amount, value_received: amount, value_sent: amount })) }),
});

export const walletUnspentSchema = walletRoute({
  summary: "A wallet's unspent outputs, oldest first, 10 per page, with each one's address and path",
  tag: 'wallet',
  params: pageParams,
  data: obj({ outputs: arr(obj({ hash: str, index: int, value: amount, address: str, path: str, block: nullable('integer') })) }),
});

export const walletAddressesSchema = walletRoute({
  summary: "A wallet's used addresses with their paths, balances and transaction counts",
  tag: 'wallet',
  params: walletParams,
  data: obj({ addresses: arr(obj({ ...addressRef, confirmed_balance: amount, unconfirmed_balance: amount, txs_total: int })) }),
});
