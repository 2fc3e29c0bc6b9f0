import { arr, bool, nullable, obj } from '../../shared/schema-kit.js';
import { amount, int, priceObject, str, V3P, v3Params, v3Route } from './v3-schema-kit.js';

const addrParams = v3Params({ network: V3P.network, address: V3P.address }, ['network', 'address']);
const pageParams = v3Params({ network: V3P.network, address: V3P.address, page: V3P.page }, ['network', 'address']);

export const transactionsSchema = v3Route({
  summary: 'Transactions of an address, newest first, 10 per page',
  tag: 'address',
  params: pageParams,
  data: obj({
    transactions: arr(obj({ hash: str, value_sent: amount, value_received: amount, balance_change: amount, time: int, block: nullable('integer'), price: priceObject })),
  }),
});

export const transactionCountsSchema = v3Route({
  summary: 'Numbers of transactions sending from and paying to an address (mempool included)',
  tag: 'address',
  params: addrParams,
  data: obj({ sent: int, received: int, total: int }),
});

export const unspentOutputsSchema = v3Route({
  summary: 'Unspent outputs of an address, oldest first, 10 per page',
  tag: 'address',
  params: pageParams,
  data: obj({ outputs: arr(obj({ hash: str, index: int, script: str, address: str, value: amount, block: nullable('integer'), tx_hex: str })) }),
});

export const balanceSchema = v3Route({
  summary: 'Confirmed and unconfirmed (mempool, may be negative) balance',
  tag: 'address',
  params: addrParams,
  data: obj({ confirmed: amount, unconfirmed: amount }),
});

export const addressSummarySchema = v3Route({
  summary: 'Counts, balances and total received of an address',
  tag: 'address',
  params: addrParams,
  data: obj({ txs_sent: int, txs_received: int, txs_total: int, confirmed_balance: amount, unconfirmed_balance: amount, confirmed_received: amount }),
});

export const isValidAddressSchema = v3Route({
  summary: 'Whether an address is valid on the network',
  tag: 'address',
  params: addrParams,
  data: obj({ is_valid: bool }),
});
