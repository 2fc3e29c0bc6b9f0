-- Outpoint schema version 3 (SQLite): exchange prices (market data).
-- Prices are normalised decimal strings (no floats; text equality is numeric equality). Times are UNIX seconds.
-- price_latest: one row per (coin, base, exchange); answers "latest per exchange" from its primary key and
-- carries checked_at (last observation of that price) for the staleness rule.
CREATE TABLE price_latest (
  coin TEXT NOT NULL, base TEXT NOT NULL, exchange TEXT NOT NULL,
  price TEXT NOT NULL, time INTEGER NOT NULL, checked_at INTEGER NOT NULL,
  PRIMARY KEY (coin, base, exchange)
) WITHOUT ROWID;
-- price_history: one row per observed change. The key ends in time, so "at or before t" per exchange is one
-- backwards range step (ORDER BY time DESC LIMIT 1).
CREATE TABLE price_history (
  coin TEXT NOT NULL, base TEXT NOT NULL, exchange TEXT NOT NULL, time INTEGER NOT NULL, price TEXT NOT NULL,
  PRIMARY KEY (coin, base, exchange, time)
) WITHOUT ROWID;
