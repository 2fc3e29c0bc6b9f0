-- Outpoint schema version 2 (SQLite): short forms of addresses for the v2 `short` operation and explorer links.
-- Both directions are unique per network, so a short form, once inserted, names one address forever.
CREATE TABLE short_addresses (
  net INTEGER NOT NULL, short TEXT NOT NULL, address TEXT NOT NULL, created_at INTEGER NOT NULL,
  PRIMARY KEY (net, short)
) WITHOUT ROWID;
CREATE UNIQUE INDEX short_addresses_by_address ON short_addresses (net, address);
