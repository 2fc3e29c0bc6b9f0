/**
 * An exchange-style payout: one input into `outputs` P2WPKH outputs of 1,000 sats, each to its own key hash. Such txs
 * (5,000 outputs on mainnet) make one address event per output, which is what the event log and the Redis transport
 * must carry without repeating the tx per event.
 */
import { parseTransaction } from '../../src/chains/parsing.js';
import type { Transaction } from '../../src/core/index.js';

export function payoutTx(outputs: number): Transaction {
  // The output count is written as a 3-byte compact size.
  if (!Number.isInteger(outputs) || outputs < 253 || outputs > 0xffff) throw new RangeError('253..65535 outputs');
  const parts: Buffer[] = [Buffer.from([1, 0, 0, 0, 1]), Buffer.alloc(32, 7), Buffer.from([0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff])];
  parts.push(Buffer.from([0xfd, outputs & 0xff, outputs >> 8]));
  for (let i = 0; i < outputs; i++) {
    const value = Buffer.alloc(8);
    value.writeBigUInt64LE(1_000n);
    const hash = Buffer.alloc(20);
    hash.writeUInt32BE(i + 1);
    parts.push(value, Buffer.from([22, 0x00, 0x14]), hash);
  }
  parts.push(Buffer.alloc(4));
  return parseTransaction(Buffer.concat(parts));
}
