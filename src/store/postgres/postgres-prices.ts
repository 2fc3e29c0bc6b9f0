/** PostgreSQL exchange prices: a latest row per (coin, base, exchange) plus a history row per change. */
import type pg from 'pg';
import type { PriceQuote } from '../../core/domain/prices.js';
import type { LatestPrice, PriceStore } from '../../core/store/price-store.js';
import { num, one, rows, type Row } from './connection/postgres-sql.js';

export class PostgresPrices implements PriceStore {
  /**
   * `readPool`: where reads go, the current read scope's database (a replica of `[store] read_urls` inside an API
   * request, so get_info and prices answer while the primary is down); writes always go to `pool`, the primary.
   */
  constructor(private readonly pool: pg.Pool, private readonly readPool: () => pg.Pool = () => pool) {}

  async record(quote: PriceQuote): Promise<boolean> {
    const { coin, base, exchange, price, time } = quote;
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // Serialise recorders of the same key (several processes may poll): the row lock, or for a first
      // insert the primary key, makes exactly one of them see "changed".
      const current = await one(client, 'SELECT price, time, checked_at FROM price_latest WHERE coin = $1 AND base = $2 AND exchange = $3 FOR UPDATE', [coin, base, exchange]);
      let changed = false;
      if (current && current.price === price) {
        await client.query('UPDATE price_latest SET checked_at = GREATEST(checked_at, $4) WHERE coin = $1 AND base = $2 AND exchange = $3', [coin, base, exchange, time]);
      } else if (!current || time >= num(current.time)) {
        await client.query(
          'INSERT INTO price_history (coin, base, exchange, time, price) VALUES ($1, $2, $3, $4, $5) ' +
            'ON CONFLICT (coin, base, exchange, time) DO UPDATE SET price = excluded.price',
          [coin, base, exchange, time, price],
        );
        const upsert = await one(
          client,
          'INSERT INTO price_latest (coin, base, exchange, price, time, checked_at) VALUES ($1, $2, $3, $4, $5, $5) ' +
            'ON CONFLICT (coin, base, exchange) DO UPDATE SET price = excluded.price, time = excluded.time, checked_at = excluded.checked_at ' +
            'WHERE price_latest.price <> excluded.price AND price_latest.time <= excluded.time RETURNING 1 AS changed',
          [coin, base, exchange, price, time],
        );
        changed = upsert !== undefined;
      }
      await client.query('COMMIT');
      return changed;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async latest(coin: string, base?: string): Promise<LatestPrice[]> {
    const found = base === undefined
      ? await rows(this.readPool(), 'SELECT * FROM price_latest WHERE coin = $1 ORDER BY base COLLATE "C", exchange COLLATE "C"', [coin])
      : await rows(this.readPool(), 'SELECT * FROM price_latest WHERE coin = $1 AND base = $2 ORDER BY exchange COLLATE "C"', [coin, base]);
    return found.map((r: Row) => ({
      coin: String(r.coin), base: String(r.base), exchange: String(r.exchange), price: String(r.price),
      time: num(r.time), checkedAt: num(r.checked_at),
    }));
  }

  async at(coin: string, base: string, time: number): Promise<PriceQuote[]> {
    // LATERAL: one backwards primary-key step per exchange instead of scanning the history.
    const found = await rows(
      this.readPool(),
      'SELECT l.exchange, h.price, h.time FROM price_latest l CROSS JOIN LATERAL (' +
        'SELECT price, time FROM price_history h WHERE h.coin = l.coin AND h.base = l.base AND h.exchange = l.exchange ' +
        'AND h.time <= $3 ORDER BY h.time DESC LIMIT 1) h ' +
        'WHERE l.coin = $1 AND l.base = $2 ORDER BY l.exchange COLLATE "C"',
      [coin, base, time],
    );
    return found.map((r) => ({ coin, base, exchange: String(r.exchange), price: String(r.price), time: num(r.time) }));
  }
}
