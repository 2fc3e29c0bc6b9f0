/**
 * The short-address table for both engines (over a SqlRunner): insert-if-free over the candidate list, unique in both
 * directions; the unique indexes settle races between processes.
 */
import { StoreError } from '../../../core/domain/errors.js';
import type { NetworkId } from '../../../core/domain/network.js';
import type { ShortAddressStore } from '../../../core/store/short-address-store.js';
import { networkCode } from '../schema/network-codes.js';
import { shortCandidates, SHORT_CODE_PATTERN } from '../schema/short-codes.js';
import type { SqlRunner } from '../sql/sql-runner.js';

export class SqlShortAddresses implements ShortAddressStore {
  constructor(private readonly db: SqlRunner) {}

  async shortFor(network: NetworkId, address: string): Promise<string> {
    const net = networkCode(network);
    const existing = await this.find(net, address);
    if (existing) return existing;
    const now = Math.floor(Date.now() / 1000);
    for (const candidate of shortCandidates(net, address)) {
      const inserted = await this.db.run('INSERT INTO short_addresses (net, short, address, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
        [net, candidate, address, now]);
      if (inserted === 1) return candidate;
      // Either the code belongs to another address (try the next) or another process just gave this address one.
      const raced = await this.find(net, address);
      if (raced) return raced;
    }
    throw new StoreError(`no free short form for ${address}`);
  }

  async addressFor(network: NetworkId, short: string): Promise<string | null> {
    if (!SHORT_CODE_PATTERN.test(short)) return null;
    const [row] = await this.db.all('SELECT address FROM short_addresses WHERE net = ? AND short = ?', [networkCode(network), short]);
    return row ? String(row.address) : null;
  }

  /** The address's short form if it has one; never assigns (an address page must not write a row per visit). */
  findShort(network: NetworkId, address: string): Promise<string | null> {
    return this.find(networkCode(network), address);
  }

  private async find(net: number, address: string): Promise<string | null> {
    const [row] = await this.db.all('SELECT short FROM short_addresses WHERE net = ? AND address = ?', [net, address]);
    return row ? String(row.short) : null;
  }
}
