/**
 * Session-local staging tables of a network's writer connection: binary COPY cannot upsert, join or update, so rows
 * that may conflict (txs of a block connected again), drive an UPDATE (spent prevouts, script totals) are copied
 * here first and applied with one set-based statement. ON COMMIT DELETE ROWS empties them at the end of every batch;
 * a rolled back batch leaves nothing behind either. The writer session serves one network, so the tables are
 * shaped after that network's tables.
 */
import type pg from 'pg';
import type { ChainTables } from '../../common/schema/chain-tables.js';

export const STAGE = {
  txs: 'stage_txs',
  /** External prevouts of a batch: n (its index in BatchNeeds.externalPrevouts), outpoint, spender id and input. */
  spends: 'stage_spends',
  totals: 'stage_totals',
} as const;

/** Creates the staging tables; run once per writer session, outside a transaction (they live as long as the session). */
export async function createStagingTables(client: pg.ClientBase, t: ChainTables): Promise<void> {
  await client.query(`
    CREATE TEMP TABLE ${STAGE.txs} (LIKE ${t.txs}) ON COMMIT DELETE ROWS;
    CREATE TEMP TABLE ${STAGE.spends} (
      n INTEGER NOT NULL, txid BYTEA NOT NULL, vout INTEGER NOT NULL, spender BIGINT NOT NULL, vin INTEGER NOT NULL
    ) ON COMMIT DELETE ROWS;
    CREATE TEMP TABLE ${STAGE.totals} (
      key BIGINT NOT NULL, received NUMERIC NOT NULL, sent NUMERIC NOT NULL,
      tx_count BIGINT NOT NULL, received_count BIGINT NOT NULL, sent_count BIGINT NOT NULL
    ) ON COMMIT DELETE ROWS;`);
}
