/**
 * The one description of every configuration key: its TOML path, type, range, default and meaning. The loader reads
 * its checks and defaults from here (config-values.ts), the environment names derive from it, and the README's key
 * table is generated from it (config-docs.ts; `npm run docs:config`, checked by config-docs.test.ts), so a key cannot
 * exist, or default differently, in one place and not another.
 */
import { PRICE_SOURCE_IDS } from '../core/domain/prices.js';

export { derived, type DerivedDefault, type KeyDefault, type KeySpec, type KeyType } from './config-schema-types.js';
import { derived, type KeySpec } from './config-schema-types.js';
import { ELECTRUM_KEYS, ELECTRUM_NETWORK_KEYS } from './electrum-keys.js';

/** `[market]`: polling settings plus one `<source>_url` key per exchange (flat, so OUTPOINT_MARKET_KRAKEN_URL works). */
const MARKET_KEYS: Readonly<Record<string, KeySpec>> = {
  sources: {
    type: 'list', oneOf: PRICE_SOURCE_IDS, default: PRICE_SOURCE_IDS,
    doc: 'exchanges to poll (by default every one Outpoint knows); `[]` turns prices off (offline machines)',
  },
  interval_ms: { type: 'integer', min: 1000, max: 3_600_000, default: 15_000, doc: 'time between two polls of one exchange' },
  timeout_ms: { type: 'integer', min: 100, max: 120_000, default: 5000, doc: 'an exchange request is abandoned after this long' },
  max_age_s: { type: 'integer', min: 1, max: 604_800, default: 300, doc: 'a price not confirmed for this long is stale and not served as current' },
  ...Object.fromEntries(PRICE_SOURCE_IDS.map((id) => [`${id}_url`, {
    type: 'url', default: derived("the exchange's API"), row: '<id>_url', doc: "replaces an exchange's public API origin (proxies, mirrors, tests)",
  } satisfies KeySpec])),
};

/** `[accounts]`: the dashboard (docs/dashboard.md). */
const ACCOUNT_KEYS: Readonly<Record<string, KeySpec>> = {
  registration: {
    type: 'string', oneOf: ['closed', 'invite', 'open'], default: 'invite',
    doc: 'who can make a dashboard account: `closed` (CLI only), `invite` (one-time links), `open` (anyone)',
  },
  default_plan: { type: 'string', default: 'free', doc: 'plan of open sign-ups (`free`, 1,000 requests a day, exists out of the box)' },
  secret_key: {
    type: 'string', default: derived('`<data_dir>/secret.key`, made on first use'),
    doc: '64 hex digits sealing TOTP secrets and signing CSRF tokens; every API process of one database needs the same',
  },
  key_grace_seconds: { type: 'integer', min: 0, max: 2_592_000, default: 86_400, doc: 'a key rotated in the dashboard keeps working this long, then answers 401' },
  session_idle_hours: { type: 'integer', min: 1, max: 8760, default: 72, doc: 'a dashboard session unused this long ends' },
  session_max_days: { type: 'integer', min: 1, max: 365, default: 30, doc: 'a dashboard session ends this long after sign-in, whatever its use' },
  usage_keep_days: { type: 'integer', min: 90, max: 36_500, default: 400, doc: 'per-day request counts older than this are deleted (at least 90)' },
  password_hash_concurrency: { type: 'integer', min: 1, max: 64, default: 2, doc: 'scrypt hashes computed at once (128 MiB each); more wait, a full queue is refused' },
  signin_failures_per_ip: { type: 'integer', min: 1, max: 100_000, default: 30, doc: 'failed sign-ins (and reset requests) per client network in 15 minutes before it must wait' },
  signin_failures_per_account: { type: 'integer', min: 1, max: 10_000, default: 10, doc: 'failed sign-ins and second-factor codes for one email in 15 minutes before it must wait' },
  signin_attempts_per_ip: { type: 'integer', min: 1, max: 100_000, default: 60, doc: 'password checks (sign-ins and confirmations, right or wrong) per client network in 15 minutes before it must wait' },
  signin_attempts_per_account: { type: 'integer', min: 1, max: 10_000, default: 20, doc: 'password checks for one email in 15 minutes before it must wait' },
  key_failures_per_ip: {
    type: 'integer', min: 0, max: 1_000_000, default: 100,
    doc: 'v3 requests answered 401 (no, malformed or unknown API key) per client network in a minute before it gets 429 (0 = off)',
  },
};

export const TOP_LEVEL_KEYS: Readonly<Record<string, KeySpec>> = {
  data_dir: { type: 'string', default: './data', doc: 'directory for the embedded store and other state' },
};

export const SECTION_KEYS: Readonly<Record<string, Readonly<Record<string, KeySpec>>>> = {
  store: {
    url: { type: 'string', default: derived('`sqlite:<data_dir>/outpoint.db`'), doc: '`sqlite:PATH` or `postgres://user:pass@host:port/db`' },
    raw_txs: {
      type: 'string', oneOf: ['store', 'node'], default: 'store',
      doc: "`store`: confirmed txs' raw bytes are kept in the store; `node`: read from the node when an answer shows them (60 % less disk on the " +
        'bench chain; needs an unpruned node; raw routes answer 503 while it is down). See docs/indexer.md, "Raw transactions"',
    },
    raw_tx_cache_mb: { type: 'integer', min: 0, max: 65_536, default: 64, doc: "with `raw_txs = \"node\"`: MiB per network of recent blocks' and hot txs' raw bytes kept in memory" },
    sqlite_cache_mb: {
      type: 'integer', min: 2, max: 65_536, default: derived('sized to the index: 1 MiB per 16 MiB of it, at least 128, at most 1024 and an eighth of RAM'),
      doc: 'SQLite: page cache of the store connection in MiB (a bound, filled as used); more keeps more of a large index\'s B-tree pages between blocks (docs/operations.md, "A big SQLite index: the page cache")',
    },
    read_urls: {
      type: 'list', default: [],
      doc: '`postgres://` URLs of streaming replicas (hot standbys) of `url` that serve the API\'s reads; the indexer and every write use `url` (docs/operations.md, "Read replicas")',
    },
    max_replica_lag_ms: { type: 'integer', min: 0, max: 3_600_000, default: 2000, doc: 'a replica further behind the primary than this is skipped' },
  },
  http: {
    host: { type: 'string', default: '127.0.0.1', doc: 'where the APIs listen' },
    port: { type: 'integer', min: 0, max: 65535, default: 3000, doc: 'the port the APIs, realtime and the web pages listen on' },
    public_url: { type: 'url', default: derived('`http(s)://<host>:<port>`'), doc: 'base of explorer links' },
    rate_limit_per_second: { type: 'integer', min: 0, max: 1_000_000, default: 5, doc: 'v2 public limit per client IP (0 = off)' },
    max_concurrent_per_ip: {
      type: 'integer', min: 0, max: 100_000, default: 0, doc: "v2 requests in flight at once per client IP (0 = off; the spec's private tiers are 8/16/32)",
    },
    tls_cert_file: {
      type: 'string', default: null,
      doc: 'PEM certificate (chain): REST, realtime (wss) and the web pages over HTTPS on `port`; re-read on SIGHUP; needs `tls_key_file` (without: plain HTTP)',
    },
    tls_key_file: { type: 'string', default: null, doc: 'PEM private key of `tls_cert_file`; re-read on SIGHUP' },
    trust_proxy: {
      type: 'trust-proxy', default: false,
      doc: 'whose `X-Forwarded-For` names the client for every per-address limit: `false` (never), a list of the proxies\' addresses or CIDRs (`["127.0.0.1"]`), a hop count, or `true` (every hop; avoid). See docs/operations.md, "Security", for nginx',
    },
    request_timeout_s: {
      type: 'integer', min: 1, max: 3600, default: 30,
      doc: 'a request whose headers and body have not all arrived this long after it started gets `408` and its connection closed; headers alone get the lesser of this and 10 s',
    },
    keep_alive_timeout_s: {
      type: 'integer', min: 1, max: 3600, default: 65,
      doc: 'an idle keep-alive connection is closed after this long (longer than the 60 s upstream idle time of nginx and most balancers)',
    },
    max_connections: {
      type: 'integer', min: 1, max: 10_000_000, default: derived('the open-file limit less 512, at most one per 128 KiB of RAM'),
      doc: 'connections open at once, HTTP and websockets together; more are closed as they arrive (raise `LimitNOFILE` to raise it)',
    },
    hsts_max_age_s: {
      type: 'integer', min: 0, max: 63_072_000, default: 31_536_000,
      doc: 'with TLS: `Strict-Transport-Security: max-age=…` on every answer (one year); `0` = not sent (docs/operations.md, Security)',
    },
    processes: {
      type: 'integer', min: 1, max: 64, default: 1,
      doc: 'worker processes serving this port (REST, realtime, web pages) over the one store, per-client limits shared exactly through the serving process ' +
        '(or Redis); `1`: the serving process itself. P2P confidence is then the local model (docs/operations.md, "HTTP on several cores")',
    },
  },
  web: {
    rate_limit_per_second: {
      type: 'integer', min: 0, max: 1_000_000, default: derived('the larger of 10 and `[http] rate_limit_per_second` (0 when that is 0)'),
      doc: 'explorer and dashboard pages, search and CSV exports per client IP (`[http] trust_proxy`), counted apart from v2 (0 = off)',
    },
    live_rate_limit_per_second: {
      type: 'integer', min: 0, max: 1_000_000, default: derived('three times `rate_limit_per_second`'),
      doc: "the explorer's live-region refreshes (`?part=` fragments) per client IP, counted apart from pages: open live tabs never use up the page budget (0 = off)",
    },
  },
  realtime: {
    app_key: { type: 'string', default: 'outpoint', doc: 'the Pusher application key clients connect with' },
    send_threads: {
      type: 'integer', min: 1, max: 16, default: derived('half the cores, at least 1'),
      doc: "threads writing one event to its subscribers' sockets (native sender only; see docs/benchmarks.md, Realtime)",
    },
    max_connections_per_ip: {
      type: 'integer', min: 0, max: 10_000_000, default: 100,
      doc: 'websockets open at once from one client address (`[http] trust_proxy`); more are refused with 4100 (0 = off)',
    },
    event_log_hours: {
      type: 'integer', min: 0, max: 8760, default: 24,
      doc: 'realtime events are kept this long in the store for the catch-up feed (`/api/v2/events`, docs/realtime.md); 0 = no log, no `event_id`',
    },
    event_log_max_events: {
      type: 'integer', min: 1000, max: 1_000_000_000, default: 1_000_000,
      doc: 'at most this many event ids are kept per network, whatever their age (bounds the table on a busy chain)',
    },
    feed_page_kib: {
      type: 'integer', min: 16, max: 65_536, default: 1024,
      doc: 'a catch-up page (`/api/v2/events`) ends once it holds this many KiB of events as sent (and at most `limit` events; a single larger event still goes alone); `has_more` says there is more',
    },
    feed_mib_per_minute: {
      type: 'integer', min: 0, max: 1_000_000, default: 64,
      doc: 'catch-up pages per client network (IPv4 address, IPv6 /64) and minute, in MiB sent; past it `429` with Retry-After (0 = off)',
    },
  },
  wallets: {
    derive_per_minute: {
      type: 'integer', min: 0, max: 100_000_000, default: 20_000,
      doc: 'key derivations per client network (IPv4 address, IPv6 /64) and minute, explorer and v3 together: each key of each wallet address (a k-of-n address costs n) and each key path step; past it `429` with Retry-After, what was derived is kept (0 = off; docs/wallets.md, Limits)',
    },
    derive_threads: {
      type: 'integer', min: 1, max: 64, default: derived('half the cores, at least 1'),
      doc: 'worker threads deriving wallet addresses (at the lowest priority), so the event loop keeps answering other requests meanwhile',
    },
    derive_queue: {
      type: 'integer', min: 0, max: 100_000, default: 32,
      doc: 'wallet derivations waiting for a thread, all clients together; one more is answered `503` with Retry-After',
    },
    cache_mb: {
      type: 'integer', min: 1, max: 65_536, default: 32,
      doc: "MiB of derived scripts (and each wallet's own overhead) kept between requests; least recently used wallets go first",
    },
  },
  webhooks: {
    allow_private_targets: {
      type: 'boolean', default: false,
      doc: '`true`: webhook URLs may resolve to loopback, private, link-local or metadata addresses (tests, private deployments; docs/webhooks.md)',
    },
    max_hooks: { type: 'integer', min: 0, max: 1_000_000, default: 20, doc: 'webhooks an account may hold, for plans not in `plan_limits`' },
    max_deliveries_per_day: {
      type: 'integer', min: 0, max: 1_000_000_000, default: 10_000,
      doc: 'webhook deliveries per account and UTC day, for plans not in `plan_limits` (apart from the API quota; past it deliveries are dropped)',
    },
    plan_limits: { type: 'list', default: [], doc: 'per plan `"plan:max_hooks:deliveries_per_day"`, e.g. `["free:3:1000", "pro:500:1000000"]`' },
    max_wallet_hooks: { type: 'integer', min: 0, max: 1_000_000, default: 1000, doc: '`wallet` webhooks all accounts may hold together (each also counts as one of its account\'s hooks; docs/webhooks.md)' },
    wallet_window_addresses: {
      type: 'integer', min: 0, max: 100_000_000, default: 100_000,
      doc: "addresses all watched wallets' windows hold together in the writer (about 100 bytes and, at a start, one derivation per key each); past it windows stop moving",
    },
    retry_hours: { type: 'integer', min: 1, max: 720, default: 24, doc: 'a delivery not answered with 2xx is retried (backoff up to an hour) this long, then failed' },
    concurrency: { type: 'integer', min: 1, max: 10_000, default: 64, doc: 'deliveries in flight at once per process' },
    dns_timeout_ms: {
      type: 'integer', min: 100, max: 60_000, default: 5000,
      doc: "a webhook target's name unresolved this long is refused (at registration) or the call failed (retried later); resolved by c-ares, off the thread pool",
    },
    dns_servers: {
      type: 'list', default: [],
      doc: 'DNS servers (`1.2.3.4`, `1.2.3.4:5353`, `[::1]:53`) for webhook targets\' names; empty: the system\'s (`/etc/resolv.conf`; `/etc/hosts` is not read, `localhost` is loopback)',
    },
  },
  redis: {
    url: { type: 'url', default: null, doc: '`redis://host:port`: events, rate limits and quotas shared between processes' },
  },
  market: MARKET_KEYS,
  log: {
    level: { type: 'string', oneOf: ['debug', 'info', 'warn', 'error'], default: 'info', doc: 'lowest level written: `debug` (adds a line per HTTP request), `info`, `warn`, `error`' },
    format: { type: 'string', oneOf: ['auto', 'json', 'text'], default: 'auto', doc: '`auto`: text on a terminal, one JSON object per line otherwise; `json` or `text` forces one' },
    wallet_keys: {
      type: 'boolean', default: false,
      doc: '`true`: log lines keep the extended public keys of wallet requests (xpub, descriptors) as given; `false`: they are masked, so what a wallet asked is not kept (docs/wallets.md)',
    },
  },
  metrics: {
    port: { type: 'integer', min: 0, max: 65535, default: null, doc: 'serve `/metrics` (and `/health`) on this port of their own instead of the API port (so it need not be public)' },
    host: { type: 'string', default: '127.0.0.1', doc: 'with `port`: the address `/metrics` listens on' },
  },
  health: {
    max_lag_blocks: { type: 'integer', min: 0, max: 1_000_000, default: 3, doc: '`/ready/{NETWORK}` answers 503 when the index is more than this many blocks behind the node' },
    check_interval_ms: { type: 'integer', min: 100, max: 600_000, default: 5000, doc: 'time between two background checks of each node and the store' },
    timeout_ms: { type: 'integer', min: 100, max: 600_000, default: 10_000, doc: 'a node or store unanswered this long counts as down' },
  },
  accounts: ACCOUNT_KEYS,
  electrum: ELECTRUM_KEYS,
  smtp: {
    url: {
      type: 'url', default: null,
      doc: '`smtp://user:pass@host:587` or `smtps://…:465`: verification and reset mail (nodemailer); without it the operator makes reset links',
    },
    from: { type: 'string', default: derived('`Outpoint <outpoint@HOST>`'), doc: 'sender of account mail (HOST from `[http] public_url`)' },
  },
};

export const NETWORK_KEYS: Readonly<Record<string, KeySpec>> = {
  chain: { type: 'chain', default: derived('from the acronym'), doc: '`main`, `test` or `regtest` (a regtest node answers under its coin\'s test acronym)' },
  rpc_url: { type: 'url', default: null, required: true, doc: 'node JSON-RPC URL, credentials as user:pass in the URL or through `rpc_cookie`' },
  rpc_cookie: { type: 'string', default: null, doc: "the node's `.cookie` file (re-read on every call)" },
  zmq_url: { type: 'url', default: null, doc: "the node's ZMQ endpoint for every topic in `zmq_topics` (no ZMQ: polling)" },
  zmq_topics: {
    type: 'list', default: derived('`sequence`; `hashblock, hashtx` for DOGE/DOGETEST'),
    doc: 'topics to follow: `sequence` alone, or `hashblock` and/or `hashtx`; `topic=tcp://host:port` gives a topic its own endpoint',
  },
  zmq_reconcile_ms: {
    type: 'integer', min: 0, max: 600_000, default: derived('`10000` with `sequence`, `1000` otherwise'),
    doc: 'how often the node is also polled for what ZMQ does not say (1.14: removals, disconnect-only tip changes); 0 = never',
  },
  poll_ms: { type: 'integer', min: 10, max: 600_000, default: 250, doc: 'polling interval without ZMQ' },
  sync_batch_txs: { type: 'integer', min: 1, max: 1_000_000, default: 20_000, doc: 'initial sync commits about this many txs at once (less: less memory)' },
  sync_requests: {
    type: 'integer', min: 1, max: 64, default: 4,
    doc: 'getblock requests in flight during sync; `16` fetches the next batch while one is written (~1 s faster on the 100k-tx bench chain on a ' +
      "4-thread Xeon VM, no difference on a 2-vCPU one where SQLite's write sets the pace; ~150 MiB more peak memory)",
  },
  mempool_removed_keep_hours: {
    type: 'integer', min: 0, max: 87_600, default: 72,
    doc: 'hours a replaced or double-spent tx stays queryable (status removed) before the indexer forgets it; `0` keeps them forever',
  },
  mempool_sample_seconds: {
    type: 'integer', min: 0, max: 3600, default: 60,
    doc: "seconds between samples of the mempool's size (tx count, vbytes, fees) for the explorer's 24-hour chart; `0` takes none",
  },
  mempool_samples_keep_hours: {
    type: 'integer', min: 24, max: 8760, default: 72,
    doc: 'hours mempool samples are kept before the indexer deletes them (the chart shows the last 24)',
  },
  p2p_peers: {
    type: 'list', default: [],
    doc: 'P2P nodes (`host:port`, `[v6]:port`; the port defaults to the network\'s) the listener always connects to, for network confidence and ' +
      'double-spend detection (docs/p2p.md)',
  },
  p2p_discover: {
    type: 'boolean', default: derived('`true`; `false` on regtest'),
    doc: 'also connect to peers the node knows (`getpeerinfo`, `getnodeaddresses`), at most one per /16',
  },
  p2p_target_peers: {
    type: 'integer', min: 0, max: 64, default: 8,
    doc: 'P2P connections to keep, configured peers included; `0` turns the listener off (confidence then from our node alone, docs/confidence.md)',
  },
  ...ELECTRUM_NETWORK_KEYS,
};
