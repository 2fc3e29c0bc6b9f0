-- Outpoint schema version 3 (PostgreSQL): exchange prices; same tables as sqlite-003-prices.sql.
-- Prices stay TEXT (normalised decimals) so both engines return the exact string that was recorded.
CREATE TABLE price_latest (
  coin TEXT NOT NULL, base TEXT NOT NULL, exchange TEXT NOT NULL,
  price TEXT NOT NULL, time BIGINT NOT NULL, checked_at BIGINT NOT NULL,
  PRIMARY KEY (coin, base, exchange)
);
CREATE TABLE price_history (
  coin TEXT NOT NULL, base TEXT NOT NULL, exchange TEXT NOT NULL, time BIGINT NOT NULL, price TEXT NOT NULL,
  PRIMARY KEY (coin, base, exchange, time)
);
