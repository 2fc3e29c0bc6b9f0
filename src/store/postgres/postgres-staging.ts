/**
 * Session-local staging tables of the writer connection: binary COPY cannot upsert or join, so rows that may
 * conflict (txs and outputs of a re-confirmed block), drive an UPDATE (spends, totals) or a lookup (scripts, spent prevouts) are copied here first and
 * applied with one set-based statement. ON COMMIT DELETE ROWS empties them at the end of every batch; a rolled
 * back batch leaves nothing behind either.
 */
import type pg from 'pg';

export const STAGE = {
  txs: 'stage_txs',
  outputs: 'stage_outputs',
  spends: 'stage_spends',
  totals: 'stage_totals',
  scripts: 'stage_scripts',
} as const;

/** Creates the staging tables; run once per writer session, outside a transaction (they live as long as the session). */
export async function createStagingTables(client: pg.ClientBase): Promise<void> {
  await client.query(`
    CREATE TEMP TABLE ${STAGE.txs} (LIKE txs) ON COMMIT DELETE ROWS;
    CREATE TEMP TABLE ${STAGE.outputs} (LIKE outputs) ON COMMIT DELETE ROWS;
    CREATE TEMP TABLE ${STAGE.spends} (txid BYTEA NOT NULL, vout INTEGER NOT NULL, stxid BYTEA NOT NULL, vin INTEGER NOT NULL) ON COMMIT DELETE ROWS;
    CREATE TEMP TABLE ${STAGE.totals} (
      id BIGINT NOT NULL, received NUMERIC NOT NULL, sent NUMERIC NOT NULL,
      tx_count BIGINT NOT NULL, received_count BIGINT NOT NULL, sent_count BIGINT NOT NULL
    ) ON COMMIT DELETE ROWS;
    CREATE TEMP TABLE ${STAGE.scripts} (script BYTEA NOT NULL) ON COMMIT DELETE ROWS;`);
}
