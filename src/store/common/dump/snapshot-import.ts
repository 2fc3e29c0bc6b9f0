/**
 * `outpoint snapshot import`: loads a snapshot into a network whose chain index is empty, in one write transaction:
 * the deferred indexes are dropped, the tables filled in key order, checked against the manifest, the indexes built
 * (as the initial sync does), the rows checked against the chain they claim (snapshot-verify.ts) and the tip set.
 * Anything wrong rolls the whole load back, so the network stays empty. The caller has checked the tip against the
 * node (main/commands/snapshot.command.ts). docs/snapshots.md.
 */
import { StoreError } from '../../../core/domain/errors.js';
import { NETWORK_IDS } from '../../../core/domain/network.js';
import { chainTables, deferredIndexes } from '../schema/chain-tables.js';
import { storedKeyBits } from '../chain-writes/script-keys.js';
import { any, type DumpEngine, type DumpSink } from './dump-engine.js';
import { DumpError } from './dump-format.js';
import { loadTables, type LoadedTable } from './dump-load.js';
import { DumpReader } from './dump-reader.js';
import { networkCode } from '../schema/network-codes.js';
import type { SnapshotHeader } from './snapshot-export.js';
import { checkSnapshotHeader } from './snapshot-header.js';
import { snapshotTables } from './snapshot-tables.js';
import { verifySnapshot, type SnapshotChecks } from './snapshot-verify.js';

/** The header alone (to check the tip against the node before loading). */
export async function readSnapshotHeader(file: string): Promise<SnapshotHeader> {
  const reader = new DumpReader(file);
  try {
    return checkSnapshotHeader(await reader.header<unknown>(), file);
  } finally {
    reader.close();
  }
}

export interface ImportedSnapshot {
  readonly header: SnapshotHeader;
  readonly tables: LoadedTable[];
  /** What was checked against the chain before the load was committed (snapshot-verify.ts); null when skipped. */
  readonly checks: SnapshotChecks | null;
}

/** `checkChain: false` (`--skip-chain-check`) loads on the digests alone: for snapshots the operator exported. */
export async function importSnapshot(engine: DumpEngine, file: string, options: { readonly checkChain?: boolean } = {}): Promise<ImportedSnapshot> {
  const reader = new DumpReader(file);
  try {
    const header = checkSnapshotHeader(await reader.header<unknown>(), file);
    const id = header.network;
    const net = networkCode(id);
    return await engine.write(net, async (sink) => {
      const t = chainTables(id);
      // This network's mempool and sync status start over: the node's mempool is read again when serving starts.
      for (const table of [t.mempoolSpends, t.mempoolOutputs, t.mempoolTxs]) await sink.exec(`DELETE FROM ${table}`);
      await sink.exec(`DELETE FROM sync_status WHERE net = ${net}`);
      await checkTarget(sink, header);
      const indexes = deferredIndexes(engine.engine, id);
      for (const index of indexes) await sink.exec(index.drop);
      const { tables } = await loadTables(reader, sink, snapshotTables(id), file);
      for (const index of indexes) await sink.exec(index.create);
      // Statistics first: the checks below are joins the planner must see the real sizes for.
      if (engine.engine === 'postgres') for (const table of snapshotTables(id)) await sink.exec(`ANALYZE ${table.name}`);
      const checks = options.checkChain === false ? null : await verifySnapshot(sink, header, file);
      const hash = engine.engine === 'sqlite' ? `X'${header.tip.hash}'` : `'\\x${header.tip.hash}'::bytea`;
      await sink.exec(`INSERT INTO tips (net, height, hash, next_tx) VALUES (${net}, ${Number(header.tip.height)}, ${hash}, ${BigInt(header.tip.next_tx)})`);
      return { header, tables, checks };
    });
  } finally {
    reader.close();
  }
}

async function checkTarget(sink: DumpSink, header: SnapshotHeader): Promise<void> {
  const id = header.network;
  const net = networkCode(id);
  if (!/^[0-9a-f]{64}$/.test(header.tip.hash) || !/^[0-9a-f]{32}$/.test(header.script_key_salt)) throw new DumpError('the snapshot header is malformed');
  const meta = new Map((await sink.all('SELECT key, value FROM meta')).map((r) => [String(r.key), String(r.value)]));
  const version = Number(meta.get('schema_version'));
  if (version !== header.schema_version) {
    throw new StoreError(`the snapshot has schema version ${header.schema_version}, this store ${version}: import it with the Outpoint version that wrote it`);
  }
  const t = chainTables(id);
  const used = (await sink.all(`SELECT net FROM tips WHERE net = ${net}`)).length > 0 || (await sink.all(`SELECT net FROM bulk_loads WHERE net = ${net}`)).length > 0 ||
    (await any(sink, `SELECT 1 FROM ${t.blocks}`)) || (await any(sink, `SELECT 1 FROM ${t.txs}`)) || (await any(sink, `SELECT 1 FROM ${t.scripts}`));
  if (used) throw new StoreError(`the store already has a chain index for ${id}: a snapshot is only imported into an empty one (a new store, or a network never indexed)`);
  const bits = storedKeyBits(header.script_key_bits);
  if (meta.get('script_key_salt') === header.script_key_salt && storedKeyBits(meta.get('script_key_bits')) === bits) return;
  // Script keys are a hash under the store's salt, of the store's width: the snapshot's keys are only valid under its
  // own. The store takes both over when no network holds a script key yet; otherwise both would be needed
  // (docs/snapshots.md).
  for (const other of NETWORK_IDS) {
    const o = chainTables(other);
    for (const table of [o.scripts, o.mempoolOutputs, o.mempoolSpends]) {
      if (await any(sink, `SELECT 1 FROM ${table}`)) {
        throw new StoreError(`this store already indexes ${other} under other script keys (salt or width) than the snapshot's: import into a new store, ` +
          'or import snapshots exported from the same store');
      }
    }
  }
  if ((await sink.all('SELECT net FROM bulk_loads')).length > 0) throw new StoreError('an initial sync is running in this store: import once it is done, or into a new store');
  await sink.exec(`UPDATE meta SET value = '${header.script_key_salt}' WHERE key = 'script_key_salt'`);
  await sink.exec(`DELETE FROM meta WHERE key = 'script_key_bits'`);
  await sink.exec(`INSERT INTO meta (key, value) VALUES ('script_key_bits', '${bits}')`);
}
