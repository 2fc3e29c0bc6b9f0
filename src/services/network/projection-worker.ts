/**
 * The worker of projection-thread.ts: collects a pass's entries, piece by piece, and projects them in one go (on
 * this thread a pass holds nothing else up).
 */
import { parentPort } from 'node:worker_threads';
import type { MempoolSourceEntry } from '../../core/sources/mempool-source.js';
import { projectMempoolBlocks } from './mempool-projection.js';
import { decodeEntries, type ProjectionReply, type ProjectionRequest } from './projection-messages.js';

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
