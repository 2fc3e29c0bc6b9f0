/**
 * A network's reads from one database: the primary, or one of the streaming replicas of `[store] read_urls`. Each has
 * its own readers and its own shared tip query, so a request reading one replica never gets another's tip.
 */
import type pg from 'pg';
import type { ChainTip } from '../../../core/domain/chain-types.js';
import { FreshRead } from '../../common/chain-reads/fresh-read.js';
import { readTip } from '../../common/schema/network-rows.js';
import { runPostgres } from '../connection/postgres-plans.js';
import { PostgresAddressReader } from './postgres-address-reader.js';
import type { PgNet } from './postgres-net.js';
import { PostgresScriptSetReader } from './postgres-script-set-reader.js';

export class PgReadSide {
  readonly address: PostgresAddressReader;
  readonly scriptSets: PostgresScriptSetReader;
  /** Every address page asks for the tip: concurrent callers share one query (none older than its call). */
  readonly tip: FreshRead<ChainTip | null>;

  constructor(readonly pool: pg.Pool, n: PgNet) {
    this.tip = new FreshRead(() => runPostgres(pool, readTip(n.net)));
    this.address = new PostgresAddressReader(pool, n);
    this.scriptSets = new PostgresScriptSetReader(pool, n);
  }
}

/** Where a network store's reads go: the side the current read scope picked (read-router.ts), else the primary's. */
export interface ReadSides {
  current(): PgReadSide;
}
