import type { PriceQuote } from '../../../core/domain/prices.js';
import type { AddressCounts, AddressPage, AddressTxItem, UnspentItem } from '../../../services/addresses/address-pages-service.js';
import type { AddressBalance } from '../../../services/addresses/address-balances-service.js';
import { coins, hex } from '../../shared/format.presenter.js';
import { priceObject } from './price.presenter.js';

export const transactionsData = (page: AddressPage<AddressTxItem>, prices: ReadonlyMap<number, PriceQuote | null>) => ({
  transactions: page.items.map((i) => ({
    hash: i.txid,
    value_sent: coins(i.sent),
    value_received: coins(i.received),
    balance_change: coins(i.received - i.sent),
    time: i.time,
    block: i.height,
    price: priceObject(prices.get(i.time)),
  })),
});

export const unspentOutputsData = (page: AddressPage<UnspentItem>) => ({
  outputs: page.items.map((i) => ({
    hash: i.txid,
    index: i.vout,
    script: hex(i.script),
    address: i.address ?? page.address,
    value: coins(i.value),
    block: i.height,
    tx_hex: hex(i.txRaw),
  })),
});

export const countsData = (c: AddressCounts) => ({ sent: c.sent, received: c.received, total: c.total });

export const balanceData = (b: AddressBalance) => ({ confirmed: coins(b.confirmed), unconfirmed: coins(b.unconfirmed) });

export const summaryData = (c: AddressCounts) => ({
  txs_sent: c.sent,
  txs_received: c.received,
  txs_total: c.total,
  confirmed_balance: coins(c.totals.confirmedBalance),
  unconfirmed_balance: coins(c.totals.unconfirmedBalance),
  confirmed_received: coins(c.totals.confirmedReceived),
});
