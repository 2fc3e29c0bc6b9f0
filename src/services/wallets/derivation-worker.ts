/**
 * The worker of derivation-pool.ts: one derivation job at a time, at the lowest priority. A job carries the node it
 * starts from (public key and chain code), so any thread can take any job and none keeps state between jobs.
 */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { runDerivationJob, type DerivationRequest } from './derivation-jobs.js';

// Background work: on Linux a thread's nice value is its own, so this thread alone yields the CPU to the event loop
// (and to the node beside it), as the mempool projection's worker does. Where it fails, the thread runs at the
// process's priority: still correct, only less polite.
try {
  setPriority(19);
} catch {
  // not lowered
}

parentPort!.on('message', ({ id, job }: DerivationRequest) => {
  try {
    const result = runDerivationJob(job);
    parentPort!.postMessage({ id, result }, result.kind === 'scripts' ? [result.bytes.buffer as ArrayBuffer] : []);
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).message });
  }
});
parentPort!.postMessage('ready');
