import type { MempoolEvent } from './block-notifier.js';

/** Net change from the txids we knew to the node's current list; `next` is the new known set. */
export function diffMempool(known: ReadonlySet<string>, current: readonly string[]): MempoolEvent & { next: Set<string> } {
  const next = new Set(current);
  const added: string[] = [];
  const removed: string[] = [];
  for (const txid of next) if (!known.has(txid)) added.push(txid);
  for (const txid of known) if (!next.has(txid)) removed.push(txid);
  return { added, removed, next };
}
