import { amount, arr, bool, displayRoute, int, nullable, nullableObj, obj, P, params, shapeARoute, str } from '../../shared/schema-kit.js';

const netAddr = { network: str, address: str };
const addrParams = params({ network: P.network, address: P.address }, ['network', 'address']);
const spentRef = nullableObj({ txid: str, input_no: int });

export const balanceSchema = shapeARoute('address', 'Confirmed and unconfirmed balance of an address for a minimum number of confirmations',
  params({ network: P.network, address: P.address, confirmations: P.index }, ['network', 'address']),
  obj({ ...netAddr, confirmed_balance: amount, unconfirmed_balance: amount }));

export const receivedSchema = shapeARoute('address', 'Total ever received by an address', addrParams,
  obj({ ...netAddr, confirmed_received_value: amount, unconfirmed_received_value: amount }));

export const spentSchema = shapeARoute('address', 'Total ever spent by an address', addrParams,
  obj({ ...netAddr, confirmed_sent_value: amount, unconfirmed_sent_value: amount }));

const item = { script_asm: str, script_hex: str, value: amount, confirmations: int, time: int };
const pageParams = params({ network: P.network, address: P.address, after_tx: P.cursor }, ['network', 'address']);

export const unspentSchema = shapeARoute('address', 'Unspent outputs of an address, FIFO, 100 transactions per call', pageParams,
  obj({ ...netAddr, txs: arr(obj({ txid: str, output_no: int, ...item })) }));

export const receivedTxsSchema = shapeARoute('address', 'Outputs received by an address, FIFO, 100 transactions per call', pageParams,
  obj({ ...netAddr, txs: arr(obj({ txid: str, output_no: int, ...item })) }));

export const spentTxsSchema = shapeARoute('address', 'Inputs spending from an address, FIFO, 100 transactions per call', pageParams,
  obj({ ...netAddr, txs: arr(obj({ txid: str, input_no: int, ...item })) }));

export const validSchema = shapeARoute('address', 'Whether an address is valid on the network', addrParams,
  obj({ ...netAddr, is_valid: bool }));

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

export const addressDisplaySchema = displayRoute('Address page: totals and the latest 50 transactions with senders and receivers', addrParams,
  obj({ ...netAddr, balance: amount, received_value: amount, pending_value: amount, total_txs: int, txs: arr(displayTx) }));

export const shortSchema = displayRoute('Short form of an address (or the address of a short form) and its explorer link', addrParams,
  obj({ address: str, short: str, network: str, link: str }), 400);
