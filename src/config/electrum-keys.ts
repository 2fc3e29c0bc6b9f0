/** The Electrum server's configuration keys (docs/electrum.md): `[electrum]` and each network's listeners. */
import { derived, type KeySpec } from './config-schema-types.js';

const listener = (what: string): KeySpec => ({
  type: 'string', default: null,
  doc: `\`HOST:PORT\` (\`[v6]:PORT\`) where this network's Electrum server listens ${what}; unset: off (docs/electrum.md)`,
});

/** Per network: where its Electrum server listens, by transport. */
export const ELECTRUM_NETWORK_KEYS: Readonly<Record<string, KeySpec>> = {
  electrum_tcp: listener('over TCP'),
  electrum_tls: listener('over TLS, with the `[http]` certificate (re-read on SIGHUP)'),
  electrum_ws: listener('over WebSocket'),
  electrum_wss: listener('over secure WebSocket, with the `[http]` certificate'),
};

/** `[electrum]`: what the server says about itself and what one client may hold or ask of it. */
export const ELECTRUM_KEYS: Readonly<Record<string, KeySpec>> = {
  banner: { type: 'string', default: 'Connected to an Outpoint server', doc: '`server.banner`: the text Electrum shows in its console' },
  donation_address: { type: 'string', default: '', doc: '`server.donation_address` (empty: none)' },
  max_connections_per_ip: { type: 'integer', min: 0, max: 10_000_000, default: 100, doc: 'Electrum connections open at once from one address, per network, all transports (0 = off)' },
  max_connections: { type: 'integer', min: 1, max: 10_000_000, default: 10_000, doc: 'Electrum connections open at once per network; more are closed as they arrive' },
  max_subscriptions_per_connection: {
    type: 'integer', min: 1, max: 10_000_000, default: 50_000, doc: 'scripthash subscriptions one Electrum connection may hold (past it: error 4, "Subscription limit reached")',
  },
  max_subscriptions: {
    type: 'integer', min: 1, max: 100_000_000, default: 1_000_000,
    doc: 'scripthash subscriptions per network, all connections together (shared out between the `processes`; ~500 bytes of memory each)',
  },
  max_request_bytes: {
    type: 'integer', min: 1024, max: 268_435_456, default: 2_097_152,
    doc: 'an Electrum request line (or WebSocket message) longer than this closes its connection',
  },
  requests_per_second: {
    type: 'integer', min: 0, max: 10_000_000, default: 1000,
    doc: 'requests per Electrum connection and second, after a burst of ten seconds\' worth; past it requests wait their turn (0 = off)',
  },
  max_history: {
    type: 'integer', min: 100, max: 100_000_000, default: 125_000,
    doc: 'transactions one Electrum history, mempool or unspent list may hold (Fulcrum\'s max_history); past it the request answers error 1',
  },
  answer_cache_mb: {
    type: 'integer', min: 0, max: 65_536, default: 32,
    doc: 'memory per Electrum process for `get_balance`, `get_history` and `listunspent` answers kept until their scripthash changes (0 = off; docs/electrum.md, "Answer cache")',
  },
  processes: {
    type: 'integer', min: 1, max: 64, default: derived('the number of cores, at most 8'),
    doc: 'processes serving the Electrum listeners over the one index, each taking its share of the connections (and of the per-address and per-network limits); `1`: the serving process itself',
  },
  idle_timeout_s: { type: 'integer', min: 10, max: 86_400, default: 600, doc: 'an Electrum connection that sent nothing for this long is closed' },
};
