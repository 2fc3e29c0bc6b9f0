import { arr, nullable, nullableObj, obj } from '../../shared/schema-kit.js';
import { amount, int, priceObject, str, V3P, v3Params, v3Route } from './v3-schema-kit.js';

const scriptObj = obj({ hex: str, asm: str });

export const transactionSchema = v3Route({
  summary: 'A transaction with its inputs, outputs, spenders, fee and price',
  tag: 'transaction',
  params: v3Params({ network: V3P.network, hash: V3P.hash }, ['network', 'hash']),
  data: obj({
    hash: str, confirmations: int, size: int, vsize: int, weight: int, version: int, locktime: int,
    block_hash: nullable('string'), block_height: nullable('integer'), time: int,
    inputs_n: int, inputs_value: amount, outputs_n: int, outputs_value: amount,
    inputs: arr(obj({ index: int, value: amount, address: str, scriptSig: scriptObj, witness: arr(str), previous_output: obj({ hash: str, index: int }) })),
    outputs: arr(obj({ index: int, value: amount, type: str, address: str, script: scriptObj, spent: nullableObj({ hash: str, index: int }) })),
    fee: amount, price: priceObject,
  }),
});

export const broadcastSchema = v3Route({
  summary: 'Broadcast a signed transaction (JSON body {"tx_hex": "…"})',
  tag: 'transaction',
  params: v3Params({ network: V3P.network }, ['network']),
  body: { type: 'object', required: ['tx_hex'], properties: { tx_hex: { type: 'string', minLength: 1 } } },
  data: obj({ network: str, hash: str }),
});
