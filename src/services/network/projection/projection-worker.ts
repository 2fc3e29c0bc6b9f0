/**
 * The worker of projection-thread.ts: collects a pass's entries, piece by piece, and projects them in one go (on
 * this thread a pass holds nothing else up).
 */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { MempoolSourceEntry } from '../../../core/sources/mempool-source.js';
import { projectMempoolBlocks } from './mempool-projection.js';
import { decodeEntries, type ProjectionReply, type ProjectionRequest } from './projection-messages.js';

// Background work: on Linux a thread's nice value is its own, so this thread alone yields the CPU to the event loop
// and to the node beside it. At its default priority, on a 2-core machine shared with the node, it took CPU from
// both during a burst and realtime's p99 rose (docs/benchmarks.md, "Mempool at mainnet rates"). Lowering one's own
// priority needs no privilege; where it fails, the thread runs at the process's.
try {
  setPriority(19);
} catch {
  // not lowered: still correct, only less polite
}

const passes = new Map<number, MempoolSourceEntry[]>();

parentPort!.on('message', (request: ProjectionRequest) => {
  const entries = passes.get(request.id) ?? [];
  if (request.kind === 'entries') {
    decodeEntries(request.piece, entries);
    passes.set(request.id, entries);
    return;
  }
  passes.delete(request.id);
  let reply: ProjectionReply;
  try {
    reply = { id: request.id, blocks: projectMempoolBlocks(entries, request.options) };
  } catch (error) {
    reply = { id: request.id, error: (error as Error).message };
  }
  parentPort!.postMessage(reply);
});
// Listening: the thread sends a pass from now on (projection-thread.ts paces passes without this start-up).
parentPort!.postMessage('ready');
