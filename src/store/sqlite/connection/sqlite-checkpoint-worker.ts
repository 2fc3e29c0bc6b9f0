/**
 * The worker of sqlite-checkpointer.ts: its own connection to the store's file, a PASSIVE checkpoint every `everyMs`.
 * PASSIVE copies what no reader still needs from the write-ahead log into the database file and syncs it, without
 * waiting for (or blocking) the service's connection; what a reader still needs is copied by a later round.
 */
import { workerData } from 'node:worker_threads';
import { openSqliteDatabase } from './sqlite-binding.js';
import type { CheckpointWorkerData } from './sqlite-checkpointer.js';

const { path, everyMs } = workerData as CheckpointWorkerData;
const db = openSqliteDatabase(path, { readonly: false, fileMustExist: true });
// It never waits: a checkpoint that cannot take its lock (another one running) is simply the next round's.
db.pragma('busy_timeout = 0');
setInterval(() => {
  db.pragma('wal_checkpoint(PASSIVE)');
}, everyMs);
