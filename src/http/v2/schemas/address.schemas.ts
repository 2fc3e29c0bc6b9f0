import { amount, arr, bool, displaySuccess, failA, failB, int, nullable, nullableObj, obj, P, params, routeSchema, str, success } from '../../shared/schema-kit.js';

const netAddr = { network: str, address: str };
const addrParams = params({ network: P.network, address: P.address }, ['network', 'address']);
const spentRef = nullableObj({ txid: str, input_no: int });

export const balanceSchema = routeSchema({
  summary: 'Confirmed and unconfirmed balance of an address for a minimum number of confirmations',
  tag: 'address',
  params: params({ network: P.network, address: P.address, confirmations: P.index }, ['network', 'address']),
  ok: success(obj({ ...netAddr, confirmed_balance: amount, unconfirmed_balance: amount })),
  fail: failA,
});

export const receivedSchema = routeSchema({
  summary: 'Total ever received by an address',
  tag: 'address',
  params: addrParams,
  ok: success(obj({ ...netAddr, confirmed_received_value: amount, unconfirmed_received_value: amount })),
  fail: failA,
});

export const spentSchema = routeSchema({
  summary: 'Total ever spent by an address',
  tag: 'address',
  params: addrParams,
  ok: success(obj({ ...netAddr, confirmed_sent_value: amount, unconfirmed_sent_value: amount })),
  fail: failA,
});

const item = { script_asm: str, script_hex: str, value: amount, confirmations: int, time: int };
const pageParams = params({ network: P.network, address: P.address, after_tx: P.cursor }, ['network', 'address']);

export const unspentSchema = routeSchema({
  summary: 'Unspent outputs of an address, FIFO, 100 transactions per call',
  tag: 'address',
  params: pageParams,
  ok: success(obj({ ...netAddr, txs: arr(obj({ txid: str, output_no: int, ...item })) })),
  fail: failA,
});

export const receivedTxsSchema = routeSchema({
  summary: 'Outputs received by an address, FIFO, 100 transactions per call',
  tag: 'address',
  params: pageParams,
  ok: success(obj({ ...netAddr, txs: arr(obj({ txid: str, output_no: int, ...item })) })),
  fail: failA,
});

export const spentTxsSchema = routeSchema({
  summary: 'Inputs spending from an address, FIFO, 100 transactions per call',
  tag: 'address',
  params: pageParams,
  ok: success(obj({ ...netAddr, txs: arr(obj({ txid: str, input_no: int, ...item })) })),
  fail: failA,
});

export const validSchema = routeSchema({
  summary: 'Whether an address is valid on the network',
  tag: 'address',
  params: addrParams,
  ok: success(obj({ ...netAddr, is_valid: bool })),
  fail: failA,
});

const displayTx = obj({
  txid: str,
  block_no: nullable('integer'),
  confirmations: int,
  time: int,
  incoming: nullableObj({
    value: amount,
    outputs: arr(obj({ output_no: int, value: amount, spent: spentRef })),
    senders: arr(obj({ input_no: int, address: nullable('string'), value: amount })),
  }),
  outgoing: nullableObj({
    value: amount,
    inputs: arr(obj({ input_no: int, value: amount })),
    receivers: arr(obj({ output_no: int, address: nullable('string'), value: amount, spent: spentRef })),
  }),
});

export const addressDisplaySchema = routeSchema({
  summary: 'Address page: totals and the latest 50 transactions with senders and receivers',
  tag: 'display',
  params: addrParams,
  ok: displaySuccess(obj({ ...netAddr, balance: amount, received_value: amount, pending_value: amount, total_txs: int, txs: arr(displayTx) })),
  fail: failB,
});

export const shortSchema = routeSchema({
  summary: 'Short form of an address (or the address of a short form) and its explorer link',
  tag: 'display',
  params: addrParams,
  ok: displaySuccess(obj({ address: str, short: str, network: str, link: str })),
  fail: failB,
  failStatus: 400,
});
