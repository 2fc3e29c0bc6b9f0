/** PostgreSQL short-address table: insert-if-free over the candidate list; unique indexes settle races between processes. */
import { StoreError } from '../../core/domain/errors.js';
import type { NetworkId } from '../../core/domain/network.js';
import type { ShortAddressStore } from '../../core/store/short-address-store.js';
import { networkCode } from '../common/schema/network-codes.js';
import { shortCandidates, SHORT_CODE_PATTERN } from '../common/schema/short-codes.js';
import { one, type Queryable } from './connection/postgres-sql.js';

export class PostgresShortAddresses implements ShortAddressStore {
  constructor(private readonly db: Queryable) {}

  async shortFor(network: NetworkId, address: string): Promise<string> {
    const net = networkCode(network);
    const existing = await this.find(net, address);
    if (existing) return existing;
    const now = Math.floor(Date.now() / 1000);
    for (const candidate of shortCandidates(net, address)) {
      const inserted = await one(
        this.db,
        'INSERT INTO short_addresses (net, short, address, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING short',
        [net, candidate, address, now],
      );
      if (inserted) return candidate;
      // Either the code belongs to another address (try the next) or another process just gave this address one.
      const raced = await this.find(net, address);
      if (raced) return raced;
    }
    throw new StoreError(`no free short form for ${address}`);
  }

  async addressFor(network: NetworkId, short: string): Promise<string | null> {
    if (!SHORT_CODE_PATTERN.test(short)) return null;
    const row = await one(this.db, 'SELECT address FROM short_addresses WHERE net = $1 AND short = $2', [networkCode(network), short]);
    return row ? String(row.address) : null;
  }

  private async find(net: number, address: string): Promise<string | null> {
    const row = await one(this.db, 'SELECT short FROM short_addresses WHERE net = $1 AND address = $2', [net, address]);
    return row ? String(row.short) : null;
  }
}
