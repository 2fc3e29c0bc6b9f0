/** SQLite short-address table: insert-if-free over the candidate list, unique in both directions. */
import { StoreError } from '../../core/domain/errors.js';
import type { NetworkId } from '../../core/domain/network.js';
import type { ShortAddressStore } from '../../core/store/short-address-store.js';
import { networkCode } from '../common/schema/network-codes.js';
import { shortCandidates, SHORT_CODE_PATTERN } from '../common/schema/short-codes.js';
import type { Row, Statements } from './connection/sqlite-statements.js';

export class SqliteShortAddresses implements ShortAddressStore {
  constructor(private readonly st: Statements) {}

  async shortFor(network: NetworkId, address: string): Promise<string> {
    const net = networkCode(network);
    const existing = this.find(net, address);
    if (existing) return existing;
    const insert = this.st.get('INSERT INTO short_addresses (net, short, address, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING');
    const now = Math.floor(Date.now() / 1000);
    for (const candidate of shortCandidates(net, address)) {
      if (insert.run(net, candidate, address, now).changes === 1) return candidate;
      // Either the code belongs to another address (try the next) or another process just gave this address one.
      const raced = this.find(net, address);
      if (raced) return raced;
    }
    throw new StoreError(`no free short form for ${address}`);
  }

  async addressFor(network: NetworkId, short: string): Promise<string | null> {
    if (!SHORT_CODE_PATTERN.test(short)) return null;
    const row = this.st.get('SELECT address FROM short_addresses WHERE net = ? AND short = ?').get(networkCode(network), short) as Row | undefined;
    return row ? String(row.address) : null;
  }

  private find(net: number, address: string): string | null {
    const row = this.st.get('SELECT short FROM short_addresses WHERE net = ? AND address = ?').get(net, address) as Row | undefined;
    return row ? String(row.short) : null;
  }
}
