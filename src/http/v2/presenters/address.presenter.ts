import type { AddressDisplay, AddressDisplayTx } from '../../../services/addresses/address-display-service.js';
import type { InputItem, OutputItem, Page } from '../../../services/addresses/address-outputs-service.js';
import type { AddressBalance, AddressFlows } from '../../../services/addresses/address-balances-service.js';
import type { ShortAddress } from '../../../services/addresses/short-address-service.js';
import type { NetworkContext } from '../../../services/shared/network-registry.js';
import { asm, coins, hex } from '../../shared/format.presenter.js';

export const balanceData = (b: AddressBalance) => ({
  network: b.network.id,
  address: b.address,
  confirmed_balance: coins(b.confirmed),
  unconfirmed_balance: coins(b.unconfirmed),
});

export const receivedData = (f: AddressFlows) => ({
  network: f.network.id,
  address: f.address,
  confirmed_received_value: coins(f.totals.confirmedReceived),
  unconfirmed_received_value: coins(f.totals.unconfirmedReceived),
});

export const spentData = (f: AddressFlows) => ({
  network: f.network.id,
  address: f.address,
  confirmed_sent_value: coins(f.totals.confirmedSent),
  unconfirmed_sent_value: coins(f.totals.unconfirmedSent),
});

export const validityData = (network: NetworkContext, address: string, valid: boolean) => ({ network: network.id, address, is_valid: valid });

/** Every item of a page pays or spends the same address, so usually one script: render it once. */
function scriptRenderer(): (script: Uint8Array) => { asm: string; hex: string } {
  let last: { bytes: Uint8Array; asm: string; hex: string } | null = null;
  return (script) => {
    if (last?.bytes !== script) last = { bytes: script, asm: asm(script), hex: hex(script) };
    return last;
  };
}

/** get_tx_unspent / get_tx_received items name the output (`output_no`), get_tx_spent items the input (`input_no`). */
function scriptPageData<T extends OutputItem | InputItem>(page: Page<T>, numberKey: 'output_no' | 'input_no', numberOf: (item: T) => number) {
  const render = scriptRenderer();
  return {
    network: page.network.id,
    address: page.address,
    txs: page.items.map((i) => ({
      txid: i.txid,
      [numberKey]: numberOf(i),
      script_asm: render(i.script).asm,
      script_hex: render(i.script).hex,
      value: coins(i.value),
      confirmations: i.confirmations,
      time: i.time,
    })),
  };
}

export const outputPageData = (page: Page<OutputItem>) => scriptPageData(page, 'output_no', (i) => i.vout);

export const inputPageData = (page: Page<InputItem>) => scriptPageData(page, 'input_no', (i) => i.vin);

const spentRef = (s: { txid: string; vin: number } | null) => (s ? { txid: s.txid, input_no: s.vin } : null);

/** One line of the address page: what came in (and from whom), what went out (and to whom). */
function displayTx(tx: AddressDisplayTx) {
  return {
    txid: tx.txid,
    block_no: tx.height,
    confirmations: tx.confirmations,
    time: tx.time,
    incoming:
      tx.incoming.length === 0
        ? null
        : {
            value: coins(tx.received),
            outputs: tx.incoming.map((o) => ({ output_no: o.vout, value: coins(o.value), spent: spentRef(o.spentBy) })),
            senders: tx.senders.map((s) => ({ input_no: s.index, address: s.address, value: coins(s.value) })),
          },
    outgoing:
      tx.outgoing.length === 0
        ? null
        : {
            value: coins(tx.sent),
            inputs: tx.outgoing.map((i) => ({ input_no: i.vin, value: coins(i.value) })),
            receivers: tx.receivers.map((r) => ({ output_no: r.index, address: r.address, value: coins(r.value), spent: spentRef(r.spentBy) })),
          },
  };
}

export const addressDisplayData = (d: AddressDisplay) => ({
  network: d.network.id,
  address: d.address,
  balance: coins(d.totals.confirmedBalance),
  received_value: coins(d.totals.confirmedReceived),
  pending_value: coins(d.totals.unconfirmedBalance),
  total_txs: d.totals.txCount + d.totals.unconfirmedTxCount,
  txs: d.txs.map(displayTx),
});

export const shortData = (s: ShortAddress, publicUrl: string) => ({
  address: s.address,
  short: s.short,
  network: s.network.id,
  link: `${publicUrl.replace(/\/+$/, '')}/s/${s.network.id}/${s.short}`,
});
