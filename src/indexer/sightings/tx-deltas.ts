import type { PrevoutInfo, ScriptDelta, Transaction } from '../../core/index.js';

const hex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

/** What a tx does to each script it touches, as the store computes it (tx-effects.ts); unknown prevouts count for nothing. */
export function txDeltas(tx: Transaction, prevouts: readonly (PrevoutInfo | null)[]): ScriptDelta[] {
  const byScript = new Map<string, { script: Uint8Array; received: bigint; sent: bigint }>();
  const at = (script: Uint8Array): { script: Uint8Array; received: bigint; sent: bigint } => {
    const key = hex(script);
    let entry = byScript.get(key);
    if (!entry) byScript.set(key, (entry = { script, received: 0n, sent: 0n }));
    return entry;
  };
  for (const prev of prevouts) if (prev) at(prev.script).sent += prev.value;
  for (const output of tx.outputs) at(output.script).received += output.value;
  return [...byScript.values()].map((d) => ({ script: d.script, txid: tx.txid, received: d.received, sent: d.sent }));
}
