/**
 * The worker of verbose-mempool-decoder.ts: decodes a `getrawmempool true` reply (exact decimals) into MempoolEntry
 * values and sends them back in pieces. A reply it cannot decode as a success is answered `fallback`: the calling
 * thread decodes it itself, so errors are the same as without the worker.
 */
import { parentPort } from 'node:worker_threads';
import { parseJsonExactDecimals } from './exact-json.js';
import { parseMempoolEntry, type MempoolEntry } from './node-replies.js';

export interface DecodeRequest {
  readonly id: number;
  readonly bytes: Uint8Array;
  /** Entries per reply message: the receiving thread decodes each message in one piece. */
  readonly piece: number;
}

export type DecodeReply =
  | { readonly id: number; readonly entries: MempoolEntry[]; readonly done: boolean }
  | { readonly id: number; readonly fallback: true };

parentPort!.on('message', ({ id, bytes, piece }: DecodeRequest) => {
  let entries: MempoolEntry[];
  try {
    const reply = parseJsonExactDecimals(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as { result?: unknown; error?: unknown };
    if (reply === null || typeof reply !== 'object' || Array.isArray(reply) || (reply.error !== undefined && reply.error !== null)) throw new Error('not a success');
    const result = reply.result;
    if (result === null || typeof result !== 'object' || Array.isArray(result)) throw new Error('not a verbose mempool');
    entries = Object.entries(result as Record<string, Record<string, unknown>>).map(([txid, e]) => parseMempoolEntry(txid, e));
  } catch {
    parentPort!.postMessage({ id, fallback: true } satisfies DecodeReply);
    return;
  }
  for (let at = 0; at < entries.length || at === 0; at += piece) {
    parentPort!.postMessage({ id, entries: entries.slice(at, at + piece), done: at + piece >= entries.length } satisfies DecodeReply);
  }
});
