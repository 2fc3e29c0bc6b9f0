/** SQLite exchange prices: a latest row per (coin, base, exchange) plus a history row per change. */
import type { PriceQuote } from '../../core/domain/prices.js';
import type { LatestPrice, PriceStore } from '../../core/store/price-store.js';
import { num, type Row, type Statements } from './connection/sqlite-statements.js';

export class SqlitePrices implements PriceStore {
  constructor(private readonly st: Statements) {}

  async record(quote: PriceQuote): Promise<boolean> {
    const { coin, base, exchange, price, time } = quote;
    // IMMEDIATE: read and write under one write lock, so two processes cannot both see "changed".
    return this.st.db.transaction((): boolean => {
      const current = this.st.get('SELECT price, time, checked_at FROM price_latest WHERE coin = ? AND base = ? AND exchange = ?')
        .get(coin, base, exchange) as Row | undefined;
      if (current && time < num(current.time)) return false;
      if (current && current.price === price) {
        if (time > num(current.checked_at)) {
          this.st.get('UPDATE price_latest SET checked_at = ? WHERE coin = ? AND base = ? AND exchange = ?').run(time, coin, base, exchange);
        }
        return false;
      }
      this.st.get(
        'INSERT INTO price_history (coin, base, exchange, time, price) VALUES (?, ?, ?, ?, ?) ' +
          'ON CONFLICT (coin, base, exchange, time) DO UPDATE SET price = excluded.price',
      ).run(coin, base, exchange, time, price);
      this.st.get(
        'INSERT INTO price_latest (coin, base, exchange, price, time, checked_at) VALUES (?, ?, ?, ?, ?, ?) ' +
          'ON CONFLICT (coin, base, exchange) DO UPDATE SET price = excluded.price, time = excluded.time, checked_at = excluded.checked_at',
      ).run(coin, base, exchange, price, time, time);
      return true;
    }).immediate();
  }

  async latest(coin: string, base?: string): Promise<LatestPrice[]> {
    const rows = (base === undefined
      ? this.st.get('SELECT * FROM price_latest WHERE coin = ? ORDER BY base, exchange').all(coin)
      : this.st.get('SELECT * FROM price_latest WHERE coin = ? AND base = ? ORDER BY exchange').all(coin, base)) as Row[];
    return rows.map((r) => ({
      coin: String(r.coin), base: String(r.base), exchange: String(r.exchange), price: String(r.price),
      time: num(r.time), checkedAt: num(r.checked_at),
    }));
  }

  async at(coin: string, base: string, time: number): Promise<PriceQuote[]> {
    const exchanges = this.st.get('SELECT exchange FROM price_latest WHERE coin = ? AND base = ? ORDER BY exchange').all(coin, base) as Row[];
    const step = this.st.get(
      'SELECT price, time FROM price_history WHERE coin = ? AND base = ? AND exchange = ? AND time <= ? ORDER BY time DESC LIMIT 1',
    );
    const out: PriceQuote[] = [];
    // One primary-key step per exchange: the exchange list is short, the history long.
    for (const { exchange } of exchanges) {
      const row = step.get(coin, base, exchange, time) as Row | undefined;
      if (row) out.push({ coin, base, exchange: String(exchange), price: String(row.price), time: num(row.time) });
    }
    return out;
  }
}
