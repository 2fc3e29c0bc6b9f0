import type { JSONSchema } from 'json-schema-to-ts';
import { arr, nullable, nullableObj, obj, type RouteRequest, type Schema } from '../../shared/schema-kit.js';
import { MAX_WALLET_TEXT } from '../../../chains/wallet/wallet-descriptor.js';
import { amount, int, str, V3P, v3Params, v3Route } from './v3-schema-kit.js';

const wallet = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_WALLET_TEXT,
  description: 'An extended public key (xpub/ypub/zpub, tpub/upub/vpub, Ltub/Mtub, dgub: the prefix implies the script) or an output descriptor: ' +
    'pk/pkh/wpkh/sh(wpkh)/tr/combo(KEY), multi/sortedmulti(k,KEY,…) bare or in sh(), wsh(), sh(wsh()), addr(ADDRESS), raw(HEX); ' +
    'KEY with optional [origin], <0;1> and /*; optional #checksum; URL-encoded as one path segment',
} as const;
const walletParams = v3Params({ network: V3P.network, wallet }, ['network', 'wallet']);
const pageParams = v3Params({ network: V3P.network, wallet, page: V3P.page }, ['network', 'wallet']);
const gapQuery = {
  type: 'object',
  properties: { gap: { type: 'string', maxLength: 12, description: 'Unused addresses in a row that end the scan of a chain: 1 to 1000 (default 20)' } },
} as const;
const addressRef = {
  address: { type: ['string', 'null'], description: 'null for a script without an address (P2PK, bare multisig, a non-standard raw() script)' },
  path: { type: ['string', 'null'], description: 'Derivation path from the key: chain/index, e.g. 0/5 (keys whose paths differ: each key\'s, comma-separated); null where nothing is derived' },
};
const policyKey = obj({
  key: { type: 'string', description: 'Extended public key in the network\'s own version, or a public key in hex' },
  fingerprint: { type: ['string', 'null'], description: 'The origin\'s fingerprint (8 hex digits); null without an origin' },
  origin_path: { type: ['string', 'null'], description: 'The origin\'s path, h for hardened, e.g. 48h/1h/0h/2h; null without an origin' },
  path: { type: ['string', 'null'], description: 'The steps after the key, e.g. <0;1>/*; null for a plain public key' },
});

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
    confirmed_received_external: { ...amount, description: 'Sum of the positive per-transaction nets over the wallet (confirmed): what came from outside; change and self-transfers cancel' },
    confirmed_sent_external: { ...amount, description: 'Sum of the negative per-transaction nets, as a positive amount (confirmed): what left the wallet, fees included' },
    txs_total: int,
    used_addresses: int,
    next_receive_address: obj(addressRef),
    next_change_address: nullableObj(addressRef),
    descriptor: { type: 'string', description: 'Normalised descriptor with its checksum' },
    script_form: { type: 'string', description: 'pkh, sh(wpkh), wpkh, tr, pk, combo, multi, sh(multi), wsh(multi), sh(wsh(multi)) (or sortedmulti), addr, raw' },
    threshold: { type: ['integer', 'null'], description: 'k of a multisig (n is the number of keys); null otherwise' },
    keys: arr(policyKey),
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
