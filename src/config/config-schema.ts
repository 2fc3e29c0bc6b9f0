/**
 * The one description of every configuration key: its TOML path, type and default.
 * The loader, the environment overrides and the docs all derive from this table,
 * so a key cannot exist in one place and be missing in another.
 */
import { PRICE_SOURCE_IDS } from '../core/domain/prices.js';

/** `list`: a TOML array of strings, or in the environment one comma-separated string. `boolean`: true/false (env: also 1/0). */
export type KeyType = 'string' | 'integer' | 'url' | 'chain' | 'list' | 'boolean';

export interface KeySpec {
  readonly type: KeyType;
  readonly min?: number;
  readonly max?: number;
  /** For lists: the allowed members. */
  readonly oneOf?: readonly string[];
  readonly doc: string;
}

/** `[market]`: polling settings plus one `<source>_url` key per exchange (flat, so OUTPOINT_MARKET_KRAKEN_URL works). */
const MARKET_KEYS: Readonly<Record<string, KeySpec>> = {
  sources: { type: 'list', oneOf: PRICE_SOURCE_IDS, doc: `exchanges to poll, any of ${PRICE_SOURCE_IDS.join(', ')} (default all of them; [] turns prices off)` },
  interval_ms: { type: 'integer', min: 1000, max: 3_600_000, doc: 'time between two polls of one exchange (default 15000)' },
  timeout_ms: { type: 'integer', min: 100, max: 120_000, doc: 'an exchange request is abandoned after this long (default 5000)' },
  max_age_s: { type: 'integer', min: 1, max: 604_800, doc: 'a price not confirmed for this long is stale and not served as current (default 300)' },
  ...Object.fromEntries(
    PRICE_SOURCE_IDS.map((id) => [`${id}_url`, { type: 'url', doc: `replaces ${id}'s public API origin (tests, proxies, mirrors)` } satisfies KeySpec]),
  ),
};

/** `[accounts]`: the dashboard (docs/dashboard.md). */
const ACCOUNT_KEYS: Readonly<Record<string, KeySpec>> = {
  registration: { type: 'string', oneOf: ['closed', 'invite', 'open'], doc: 'who can make an account: closed (CLI only), invite (one-time links), open (anyone) (default invite)' },
  default_plan: { type: 'string', doc: 'plan of accounts made by open sign-up (default free)' },
  secret_key: { type: 'string', doc: '64 hex digits sealing TOTP secrets (default: <data_dir>/secret.key, made on first start); every API process needs the same' },
  key_grace_seconds: { type: 'integer', min: 0, max: 2_592_000, doc: 'a rotated API key keeps working this long, then answers 401 (default 86400)' },
  session_idle_hours: { type: 'integer', min: 1, max: 8760, doc: 'a dashboard session unused this long ends (default 72)' },
  session_max_days: { type: 'integer', min: 1, max: 365, doc: 'a dashboard session ends this long after sign-in whatever its use (default 30)' },
  usage_keep_days: { type: 'integer', min: 90, max: 36_500, doc: 'per-day request counts older than this are deleted (default 400)' },
  password_hash_concurrency: { type: 'integer', min: 1, max: 64, doc: 'password hashes computed at once (128 MiB each); more wait (default 2)' },
  signin_failures_per_ip: { type: 'integer', min: 1, max: 100_000, doc: 'failed sign-ins (and reset requests) from one IP in 15 minutes before it must wait (default 30)' },
  signin_failures_per_account: { type: 'integer', min: 1, max: 10_000, doc: 'failed sign-ins for one email in 15 minutes before it must wait (default 10)' },
};

export const TOP_LEVEL_KEYS: Readonly<Record<string, KeySpec>> = {
  data_dir: { type: 'string', doc: 'directory for the embedded store and other state (default ./data)' },
};

export const SECTION_KEYS: Readonly<Record<string, Readonly<Record<string, KeySpec>>>> = {
  store: {
    url: { type: 'string', doc: 'sqlite:PATH (default sqlite:<data_dir>/outpoint.db) or postgres://user:pass@host:port/db' },
    raw_txs: { type: 'string', oneOf: ['store', 'node'], doc: 'where confirmed txs\' raw bytes come from: store (kept in the store) or node (read from the node when shown: less disk, needs an unpruned node; docs/indexer.md) (default store)' },
    raw_tx_cache_mb: { type: 'integer', min: 0, max: 65_536, doc: 'with raw_txs = "node": MiB of recent blocks\' and hot txs\' raw bytes kept in memory per network (default 64)' },
    read_urls: { type: 'list', doc: 'postgres:// URLs of streaming replicas (hot standbys) of url that serve the API\'s reads; the indexer and every write use url (docs/operations.md, "Read replicas") (default none)' },
    max_replica_lag_ms: { type: 'integer', min: 0, max: 3_600_000, doc: 'a replica further behind the primary than this is skipped (default 2000)' },
  },
  http: {
    host: { type: 'string', doc: 'listen address (default 127.0.0.1)' },
    port: { type: 'integer', min: 0, max: 65535, doc: 'listen port (default 3000)' },
    public_url: { type: 'url', doc: 'base of explorer links (default http://<host>:<port>)' },
    rate_limit_per_second: { type: 'integer', min: 0, max: 1_000_000, doc: 'v2 public limit per client IP (default 5, 0 = off)' },
    max_concurrent_per_ip: { type: 'integer', min: 0, max: 100_000, doc: 'v2 requests in flight at once per client IP (default 0 = off; the spec\'s private tiers are 8, 16, 32)' },
    tls_cert_file: { type: 'string', doc: 'PEM certificate (chain) file: serve HTTPS and wss on [http] port; re-read on SIGHUP (needs tls_key_file)' },
    tls_key_file: { type: 'string', doc: 'PEM private key file of tls_cert_file; re-read on SIGHUP' },
  },
  web: {
    rate_limit_per_second: { type: 'integer', min: 0, max: 1_000_000, doc: 'explorer pages, search and CSV exports per second per client IP, counted apart from v2 (default: [http] rate_limit_per_second, 0 = off)' },
  },
  realtime: {
    app_key: { type: 'string', doc: 'Pusher application key clients connect with (default outpoint)' },
    send_threads: { type: 'integer', min: 1, max: 16, doc: 'threads that write one event to a channel\'s sockets (default: half the cores, at least 1)' },
  },
  redis: {
    url: { type: 'url', doc: 'redis://host:port: share events, rate limits and quotas between processes' },
  },
  market: MARKET_KEYS,
  log: {
    level: { type: 'string', oneOf: ['debug', 'info', 'warn', 'error'], doc: 'lowest level written: debug, info, warn or error (default info; debug adds a line per HTTP request)' },
    format: { type: 'string', oneOf: ['auto', 'json', 'text'], doc: 'auto: text on a terminal, one JSON object per line otherwise (default); json or text forces one' },
  },
  metrics: {
    host: { type: 'string', doc: 'with port: serve /metrics on this address instead of the API port (default 127.0.0.1)' },
    port: { type: 'integer', min: 0, max: 65535, doc: 'serve /metrics (and /health) on this port of their own, not on the API port (default: on the API port)' },
  },
  health: {
    max_lag_blocks: { type: 'integer', min: 0, max: 1_000_000, doc: '/ready/{NETWORK} answers 503 when the index is more than this many blocks behind the node (default 3)' },
    check_interval_ms: { type: 'integer', min: 100, max: 600_000, doc: 'time between two background checks of each node and the store (default 5000)' },
    timeout_ms: { type: 'integer', min: 100, max: 600_000, doc: 'a node or store unanswered this long counts as down (default 10000)' },
  },
  accounts: ACCOUNT_KEYS,
  smtp: {
    url: { type: 'url', doc: 'smtp://user:pass@host:587 or smtps://…:465 (nodemailer): verification and password-reset mail; none: the operator makes reset links' },
    from: { type: 'string', doc: 'sender of account mail (default "Outpoint <outpoint@HOST>", HOST from [http] public_url)' },
  },
};

export const NETWORK_KEYS: Readonly<Record<string, KeySpec>> = {
  chain: { type: 'chain', doc: 'main | test | regtest (default: main for BTC/LTC/DOGE, test for *TEST)' },
  rpc_url: { type: 'url', doc: 'node JSON-RPC URL, credentials as user:pass in the URL or via rpc_cookie' },
  rpc_cookie: { type: 'string', doc: "path of the node's .cookie file" },
  zmq_url: { type: 'url', doc: 'tcp://host:port of the node\'s -zmqpub* endpoint for every topic in zmq_topics; polling when absent' },
  zmq_topics: {
    type: 'list',
    doc: 'ZMQ topics to follow: sequence, or hashblock and/or hashtx, each optionally topic=tcp://host:port (default: sequence; hashblock,hashtx for DOGE)',
  },
  zmq_reconcile_ms: {
    type: 'integer', min: 0, max: 600_000,
    doc: 'with ZMQ, how often the node is also polled for what ZMQ does not say (default 10000 with sequence, 1000 with hashblock/hashtx; 0 = never)',
  },
  poll_ms: { type: 'integer', min: 10, max: 600_000, doc: 'polling interval in ms (default 250)' },
  sync_batch_txs: { type: 'integer', min: 1, max: 1_000_000, doc: 'initial sync commits about this many txs at once (default 20000; lower uses less memory, higher writes faster)' },
  sync_requests: { type: 'integer', min: 1, max: 64, doc: 'getblock requests in flight during sync (default 4; 16 fetches the next batch while one is written: faster, ~150 MiB more memory)' },
  p2p_peers: {
    type: 'list',
    doc: 'P2P peers the listener always connects to (host:port, [v6]:port; the port defaults to the network\'s): sightings for confidence and double spends',
  },
  p2p_discover: {
    type: 'boolean',
    doc: 'also connect to peers the node knows (getnodeaddresses, getpeerinfo), one per /16 (default true on main and test chains, false on regtest)',
  },
  p2p_target_peers: { type: 'integer', min: 0, max: 64, doc: 'P2P connections to keep, configured peers always included (default 8; 0 turns the listener off)' },
  mempool_removed_keep_hours: { type: 'integer', min: 0, max: 87_600, doc: 'hours a replaced or double-spent mempool tx stays queryable as removed (default 72; 0 keeps them forever)' },
};
