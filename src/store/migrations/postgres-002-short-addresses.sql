-- Outpoint schema version 2 (PostgreSQL): short forms of addresses; same table as sqlite-002-short-addresses.sql.
CREATE TABLE short_addresses (
  net SMALLINT NOT NULL, short TEXT NOT NULL, address TEXT NOT NULL, created_at BIGINT NOT NULL,
  PRIMARY KEY (net, short)
);
CREATE UNIQUE INDEX short_addresses_by_address ON short_addresses (net, address);
