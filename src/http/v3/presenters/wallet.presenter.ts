import type { WalletAddress, WalletPage, WalletSummary, WalletTx, WalletUtxo } from '../../../services/wallets/wallet-service.js';
import { coins } from '../../shared/format.presenter.js';

export const walletSummaryData = (w: WalletSummary) => ({
  confirmed_balance: coins(w.confirmedBalance),
  unconfirmed_balance: coins(w.unconfirmedBalance),
  confirmed_received: coins(w.confirmedReceived),
  confirmed_sent: coins(w.confirmedSent),
  confirmed_received_external: coins(w.confirmedReceivedExternal),
  confirmed_sent_external: coins(w.confirmedSentExternal),
  txs_total: w.txsTotal,
  used_addresses: w.usedAddresses,
  next_receive_address: w.nextReceive,
  next_change_address: w.nextChange,
  descriptor: w.descriptor,
  script_form: w.policy.form,
  threshold: w.policy.threshold,
  keys: w.policy.keys.map((k) => ({ key: k.key, fingerprint: k.fingerprint, origin_path: k.originPath, path: k.path })),
  gap: w.gap,
});

export const walletTransactionsData = (page: WalletPage<WalletTx>) => ({
  transactions: page.items.map((t) => ({
    hash: t.txid,
    time: t.time,
    block: t.height,
    balance_change: coins(t.received - t.sent),
    value_received: coins(t.received),
    value_sent: coins(t.sent),
  })),
});

export const walletUnspentData = (page: WalletPage<WalletUtxo>) => ({
  outputs: page.items.map((o) => ({ hash: o.txid, index: o.vout, value: coins(o.value), address: o.address, path: o.path, block: o.height })),
});

export const walletAddressesData = (page: WalletPage<WalletAddress>) => ({
  addresses: page.items.map((a) => ({
    address: a.address,
    path: a.path,
    confirmed_balance: coins(a.confirmedBalance),
    unconfirmed_balance: coins(a.unconfirmedBalance),
    txs_total: a.txsTotal,
  })),
});
