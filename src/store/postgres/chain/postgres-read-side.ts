/**
 * A network's reads from one database: the primary, or one of the streaming replicas of `[store] read_urls`. Each has
 * its own readers and its own shared tip query, so a request reading one replica never gets another's tip.
 */
import type pg from 'pg';
import type { ChainTip } from '../../../core/domain/chain-types.js';
import { FreshRead } from '../../common/chain-reads/fresh-read.js';
import { PostgresAddressReader } from './postgres-address-reader.js';
import { PostgresChainReader } from './postgres-chain-reader.js';
import { readTip } from './postgres-chain-writer.js';
import type { PgNet } from './postgres-net.js';

export class PgReadSide {
  readonly address: PostgresAddressReader;
  readonly chain: PostgresChainReader;
  /** Every address page asks for the tip: concurrent callers share one query (none older than its call). */
  readonly tip: FreshRead<ChainTip | null>;

  constructor(readonly pool: pg.Pool, n: PgNet) {
    this.tip = new FreshRead(() => readTip(pool, n));
    this.address = new PostgresAddressReader(pool, n);
    this.chain = new PostgresChainReader(pool, n);
  }
}

/** Where a network store's reads go: the side the current read scope picked (read-router.ts), else the primary's. */
export interface ReadSides {
  current(): PgReadSide;
}
