/**
 * `outpoint snapshot export`: one network's chain index at its tip, read in one transaction (a consistent state while
 * the indexer keeps writing), written as a dump file (dump-writer.ts) with the tip, the schema version and the
 * script-key salt in its header. docs/snapshots.md.
 */
import { StoreError } from '../../../core/domain/errors.js';
import type { NetworkId } from '../../../core/domain/network.js';
import type { DumpEngine } from './dump-engine.js';
import type { DumpManifest } from './dump-format.js';
import { DumpWriter } from './dump-writer.js';
import { storedKeyBits } from '../chain-writes/script-keys.js';
import { networkCode } from '../schema/network-codes.js';
import { snapshotTables } from './snapshot-tables.js';

export interface SnapshotHeader {
  readonly kind: 'snapshot';
  readonly network: NetworkId;
  readonly tip: { readonly height: number; readonly hash: string; readonly next_tx: string };
  readonly schema_version: number;
  /** The source store's script-key salt: every script key in the snapshot was made with it (docs/schema.md). */
  readonly script_key_salt: string;
  /** The base keys' width under that salt (meta.script_key_bits); absent in snapshots written before it: 53. */
  readonly script_key_bits?: number;
  readonly source_engine: string;
  readonly created_at: string;
}

export interface SnapshotResult {
  readonly header: SnapshotHeader;
  readonly manifest: DumpManifest;
}

export async function exportSnapshot(engine: DumpEngine, id: NetworkId, file: string): Promise<SnapshotResult> {
  const net = networkCode(id);
  return engine.read(async (src) => {
    const meta = new Map((await src.all('SELECT key, value FROM meta')).map((r) => [String(r.key), String(r.value)]));
    if ((await src.all(`SELECT step FROM bulk_loads WHERE net = ${net}`)).length > 0) {
      throw new StoreError(`${id} is in its initial sync: export a snapshot once it is ready`);
    }
    const status = await src.all(`SELECT phase FROM sync_status WHERE net = ${net}`);
    if (status.length > 0 && status[0]!.phase !== 'ready') throw new StoreError(`${id} is syncing (${String(status[0]!.phase)}): export a snapshot once it is ready`);
    const tips = await src.all(`SELECT height, hash, next_tx FROM tips WHERE net = ${net}`);
    const tip = tips[0];
    if (!tip || Number(tip.height) < 0) throw new StoreError(`nothing is indexed for ${id}: no snapshot to export`);
    const header: SnapshotHeader = {
      kind: 'snapshot',
      network: id,
      tip: { height: Number(tip.height), hash: Buffer.from(tip.hash as Uint8Array).toString('hex'), next_tx: String(tip.next_tx) },
      schema_version: Number(meta.get('schema_version')),
      script_key_salt: meta.get('script_key_salt') ?? '',
      script_key_bits: storedKeyBits(meta.get('script_key_bits')),
      source_engine: engine.engine,
      created_at: new Date().toISOString(),
    };
    const writer = new DumpWriter(file);
    try {
      await writer.header(header);
      for (const table of snapshotTables(id)) await writer.table(table, src.rows(table));
      const manifest = await writer.finish({ kind: 'snapshot', created_at: header.created_at });
      return { header, manifest };
    } catch (err) {
      await writer.abort();
      throw err;
    }
  });
}
