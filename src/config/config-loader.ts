import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { ConfigError, NETWORK_IDS, PRICE_SOURCE_IDS, isNetworkId, type ChainKind, type NetworkId, type PriceSourceId, type RawTxMode } from '../core/index.js';
import { NETWORK_KEYS, SECTION_KEYS, TOP_LEVEL_KEYS } from './config-schema.js';
import type { MarketConfig, NetworkConfig, OutpointConfig, P2pConfig, ZmqConfig } from './config-types.js';
import { ZMQ_TOPICS, getNetworkParams, type ZmqTopic } from '../chains/addressing.js';
import { isTable, keyReader, type KeyReader, type Raw } from './config-values.js';
import { buildOpsConfig } from './ops-config.js';
import { buildHttpLimits } from './http-limits-config.js';
import { buildAccounts } from './accounts-config.js';
import { buildElectrum, buildElectrumListeners } from './electrum-config.js';
import { buildWallets, dnsServers } from './client-bounds-config.js';

/** Environment variables with these prefixes belong to scripts and tests, not to the service. */
const NON_CONFIG_ENV_PREFIXES = ['OUTPOINT_SETUP_', 'OUTPOINT_TEST_', 'OUTPOINT_BENCH_'];

export interface LoadOptions {
  readonly file?: string | undefined;
  readonly env?: NodeJS.ProcessEnv;
}

/** Reads the TOML file (if any), applies OUTPOINT_* environment overrides, validates, and freezes. */
export function loadConfig(options: LoadOptions = {}): OutpointConfig {
  let raw: Raw = {};
  if (options.file !== undefined) {
    let text: string;
    try {
      text = readFileSync(options.file, 'utf8');
    } catch (err) {
      throw new ConfigError(`cannot read config file ${options.file}: ${(err as Error).message}`);
    }
    try {
      raw = parseToml(text) as Raw;
    } catch (err) {
      throw new ConfigError(`config file ${options.file} is not valid TOML: ${tomlProblem(err)}`);
    }
  }
  const source = options.file ?? 'configuration';
  checkKnownKeys(raw, source);
  applyEnv(raw, options.env ?? process.env);
  return deepFreeze(buildConfig(raw));
}

/** smol-toml's message with its line and column, without the code block it appends (the CLI error is one line). */
function tomlProblem(err: unknown): string {
  const { message, line, column } = err as { message?: unknown; line?: unknown; column?: unknown };
  const first = String(message ?? err).split('\n')[0]!.replace(/^Invalid TOML document: /, '');
  return typeof line === 'number' && typeof column === 'number' ? `line ${line}, column ${column}: ${first}` : first;
}

function checkKnownKeys(raw: Raw, source: string): void {
  for (const [key, value] of Object.entries(raw)) {
    if (key in TOP_LEVEL_KEYS) continue;
    if (key === 'networks') {
      if (!isTable(value)) throw new ConfigError(`${source}: [networks] must be a table`);
      for (const [id, table] of Object.entries(value)) {
        if (!isNetworkId(id)) throw new ConfigError(`${source}: unknown network "networks.${id}" (use one of ${NETWORK_IDS.join(', ')})`);
        if (!isTable(table)) throw new ConfigError(`${source}: networks.${id} must be a table`);
        for (const k of Object.keys(table)) {
          if (!(k in NETWORK_KEYS)) throw new ConfigError(`${source}: unknown key "networks.${id}.${k}"`);
        }
      }
      continue;
    }
    const section = SECTION_KEYS[key];
    if (!section) throw new ConfigError(`${source}: unknown key "${key}"`);
    if (!isTable(value)) throw new ConfigError(`${source}: [${key}] must be a table`);
    for (const k of Object.keys(value)) {
      if (!(k in section)) throw new ConfigError(`${source}: unknown key "${key}.${k}"`);
    }
  }
}

/** Every settable key's environment name, e.g. http.port → OUTPOINT_HTTP_PORT. */
function envNames(): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const key of Object.keys(TOP_LEVEL_KEYS)) names.set(`OUTPOINT_${key.toUpperCase()}`, [key]);
  for (const [section, keys] of Object.entries(SECTION_KEYS)) {
    for (const key of Object.keys(keys)) names.set(`OUTPOINT_${section.toUpperCase()}_${key.toUpperCase()}`, [section, key]);
  }
  for (const id of NETWORK_IDS) {
    for (const key of Object.keys(NETWORK_KEYS)) names.set(`OUTPOINT_NETWORKS_${id}_${key.toUpperCase()}`, ['networks', id, key]);
  }
  return names;
}

function applyEnv(raw: Raw, env: NodeJS.ProcessEnv): void {
  const names = envNames();
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('OUTPOINT_') || value === undefined) continue;
    if (NON_CONFIG_ENV_PREFIXES.some((p) => name.startsWith(p))) continue;
    const path = names.get(name);
    if (!path) throw new ConfigError(`unknown environment variable ${name}`);
    let table = raw;
    for (const part of path.slice(0, -1)) {
      const next = table[part];
      if (!isTable(next)) table[part] = {};
      table = table[part] as Raw;
    }
    table[path[path.length - 1]!] = value;
  }
}

/** Pages a person opens at once (several tabs, fast clicks, a theme click's redirect) fit under the web default. */
const WEB_MIN_DEFAULT_PER_SECOND = 10;
/** A block refreshes a few live regions in each open tab: their budget is this many times the page budget. */
const LIVE_PER_PAGE = 3;

function buildWeb(web: KeyReader, apiPerSecond: number): OutpointConfig['web'] {
  const rateLimitPerSecond = web.int('rate_limit_per_second', apiPerSecond === 0 ? 0 : Math.max(WEB_MIN_DEFAULT_PER_SECOND, apiPerSecond));
  return { rateLimitPerSecond, liveRateLimitPerSecond: web.int('live_rate_limit_per_second', rateLimitPerSecond * LIVE_PER_PAGE) };
}

/** `[realtime] send_threads` by default: half the cores; the other half stays for the event loop, the indexer and the node. */
export function defaultSendThreads(): number {
  return Math.max(1, Math.floor(availableParallelism() / 2));
}

function buildConfig(raw: Raw): OutpointConfig {
  const dataDir = resolve(keyReader(TOP_LEVEL_KEYS, raw, '').str('data_dir'));
  const section = (name: string): Raw => (isTable(raw[name]) ? (raw[name] as Raw) : {});
  const keys = (name: string): KeyReader => keyReader(SECTION_KEYS[name]!, section(name), `${name}.`);
  const http = keys('http');
  const host = http.str('host');
  const port = http.int('port');
  const rateLimitPerSecond = http.int('rate_limit_per_second');
  const tls = buildTls(http);
  const networksRaw = isTable(raw['networks']) ? (raw['networks'] as Raw) : {};
  const networks = Object.entries(networksRaw).map(([id, table]) => buildNetwork(id as NetworkId, table as Raw));
  const publicUrl = http.str('public_url', `${tls ? 'https' : 'http'}://${host}:${port}`).replace(/\/+$/, '');
  const realtime = keys('realtime');
  const smtp = keys('smtp');
  return {
    dataDir,
    store: buildStore(keys('store'), dataDir),
    // max_concurrent_per_ip is off by default: single-host benchmarks and clients behind one proxy address must not be throttled.
    http: { host, port, publicUrl, rateLimitPerSecond, maxConcurrentPerIp: http.int('max_concurrent_per_ip'), tls, processes: http.int('processes'), ...buildHttpLimits(http, section('http')) },
    web: buildWeb(keys('web'), rateLimitPerSecond),
    realtime: { appKey: realtime.str('app_key'), sendThreads: realtime.int('send_threads', defaultSendThreads()), maxConnectionsPerIp: realtime.int('max_connections_per_ip'),
      eventLogHours: realtime.int('event_log_hours'), eventLogMaxEvents: realtime.int('event_log_max_events'),
      feedPageBytes: realtime.int('feed_page_kib') * 1024, feedBytesPerMinute: realtime.int('feed_mib_per_minute') * 1024 * 1024 },
    webhooks: buildWebhooks(keys('webhooks')),
    wallets: buildWallets(keys('wallets')),
    redis: { url: keys('redis').optionalStr('url') },
    electrum: buildElectrum(keys('electrum')),
    market: buildMarket(keys('market')),
    ...buildOpsConfig(keys),
    accounts: buildAccounts(keys('accounts')),
    smtp: { url: smtp.optionalStr('url'), from: smtp.str('from', `Outpoint <outpoint@${new URL(publicUrl).hostname}>`) },
    networks,
  };
}

function buildWebhooks(hooks: KeyReader): OutpointConfig['webhooks'] {
  return {
    allowPrivateTargets: hooks.bool('allow_private_targets'), maxHooks: hooks.int('max_hooks'), maxDeliveriesPerDay: hooks.int('max_deliveries_per_day'),
    planLimits: hooks.list('plan_limits'), retryHours: hooks.int('retry_hours'), concurrency: hooks.int('concurrency'),
    dnsTimeoutMs: hooks.int('dns_timeout_ms'), dnsServers: dnsServers(hooks.list('dns_servers')),
    maxWalletHooks: hooks.int('max_wallet_hooks'), walletWindowAddresses: hooks.int('wallet_window_addresses'),
  };
}

function buildStore(store: KeyReader, dataDir: string): OutpointConfig['store'] {
  const url = store.str('url', `sqlite:${join(dataDir, 'outpoint.db')}`);
  if (!/^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(url)) throw new ConfigError(`store.url must be sqlite:PATH or postgres://…, got "${url}"`);
  const readUrls = store.list('read_urls');
  for (const readUrl of readUrls) {
    if (!/^postgres(ql)?:\/\/.+$/.test(readUrl)) throw new ConfigError(`store.read_urls: each must be a postgres://… URL, got "${readUrl.replace(/\/\/[^@/]*@/, '//***@')}"`);
  }
  if (readUrls.length > 0 && !url.startsWith('postgres')) throw new ConfigError('store.read_urls needs a PostgreSQL store.url: replicas are PostgreSQL standbys of it');
  return {
    url, rawTxs: store.str('raw_txs') as RawTxMode, rawTxCacheBytes: store.int('raw_tx_cache_mb') * 1024 * 1024,
    sqliteCacheMb: store.optionalInt('sqlite_cache_mb'),
    readUrls, maxReplicaLagMs: store.int('max_replica_lag_ms'),
  };
}

/** Both files or neither: half a TLS setup is a mistake to report, not to serve plain HTTP for. */
function buildTls(http: KeyReader): OutpointConfig['http']['tls'] {
  const certFile = http.optionalStr('tls_cert_file');
  const keyFile = http.optionalStr('tls_key_file');
  if ((certFile === null) !== (keyFile === null)) throw new ConfigError('http.tls_cert_file and http.tls_key_file go together: set both for HTTPS, or neither');
  return certFile !== null && keyFile !== null ? { certFile: resolve(certFile), keyFile: resolve(keyFile) } : null;
}

function buildMarket(market: KeyReader): MarketConfig {
  // Prices out of the box, as the spec's get_price promises (seven exchanges); `sources = []` turns polling off.
  const sources = market.list('sources') as PriceSourceId[];
  const intervalMs = market.int('interval_ms');
  const maxAgeS = market.int('max_age_s');
  // Otherwise every price would turn stale between two polls and answers would flicker.
  if (sources.length > 0 && maxAgeS * 1000 <= intervalMs) {
    throw new ConfigError(`market.max_age_s (${maxAgeS} s) must be longer than market.interval_ms (${intervalMs} ms)`);
  }
  const baseUrls: Partial<Record<PriceSourceId, string>> = {};
  for (const id of PRICE_SOURCE_IDS) {
    const url = market.optionalStr(`${id}_url`);
    if (url !== null) baseUrls[id] = url;
  }
  return { sources, intervalMs, timeoutMs: market.int('timeout_ms'), maxAgeS, baseUrls };
}

function buildNetwork(id: NetworkId, table: Raw): NetworkConfig {
  const keys = keyReader(NETWORK_KEYS, table, `networks.${id}.`);
  const defaultChain: ChainKind = id.endsWith('TEST') ? 'test' : 'main';
  const chain = keys.str('chain', defaultChain) as ChainKind;
  if (chain === 'test' && !id.endsWith('TEST')) throw new ConfigError(`networks.${id}.chain: ${id} is a main network; use ${id}TEST for its test network`);
  if (chain === 'main' && id.endsWith('TEST')) throw new ConfigError(`networks.${id}.chain: ${id} is a test network; it cannot run on chain "main"`);
  const rpcUrl = keys.optionalStr('rpc_url');
  if (rpcUrl === null) throw new ConfigError(`networks.${id}.rpc_url is required`);
  return {
    id,
    chain,
    rpcUrl,
    rpcCookie: keys.optionalStr('rpc_cookie'),
    zmq: buildZmq(id, chain, keys, table),
    pollMs: keys.int('poll_ms'),
    syncBatchTxs: keys.int('sync_batch_txs'),
    syncRequests: keys.int('sync_requests'),
    mempoolRemovedKeepHours: keys.int('mempool_removed_keep_hours'),
    mempoolSampleSeconds: keys.int('mempool_sample_seconds'),
    mempoolSamplesKeepHours: keys.int('mempool_samples_keep_hours'),
    p2p: buildP2p(keys, chain, `networks.${id}.p2p_peers`),
    electrum: buildElectrumListeners(keys, `networks.${id}.`),
  };
}

/** host:port, [v6]:port or a bare host (the network's default port): what the listener can dial. */
const PEER_ADDRESS = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/;

/**
 * Discovery is on by default on main and test chains (the node knows public peers) and off on regtest, whose nodes
 * are the operator's own and know only each other: there `p2p_peers` says which to watch.
 */
function buildP2p(keys: KeyReader, chain: ChainKind, peersPath: string): P2pConfig {
  const peers = keys.list('p2p_peers');
  for (const peer of peers) {
    const match = PEER_ADDRESS.exec(peer);
    const port = match?.[2] === undefined ? 1 : Number(match[2]);
    if (!match || port < 1 || port > 65535) throw new ConfigError(`${peersPath}: "${peer}" is not host:port`);
  }
  const discover = keys.bool('p2p_discover', chain !== 'regtest');
  const targetPeers = keys.int('p2p_target_peers');
  return { peers, discover, targetPeers, enabled: targetPeers > 0 && (peers.length > 0 || discover) };
}

/**
 * `zmq_url` is the endpoint of every topic in `zmq_topics` (default: what the coin's node publishes, see
 * NetworkParams.zmqTopics); a topic written `topic=tcp://…` has its own endpoint. No zmq_url and no topics: polling.
 */
function buildZmq(id: NetworkId, chain: ChainKind, keys: KeyReader, table: Raw): ZmqConfig | null {
  const path = `networks.${id}.zmq_topics`;
  const zmqUrl = keys.optionalStr('zmq_url');
  const reconcileMs = keys.optionalInt('zmq_reconcile_ms');
  const written = table['zmq_topics'] === undefined ? null : keys.list('zmq_topics', []);
  if (written === null && zmqUrl === null) return null;
  const entries = written ?? getNetworkParams(id, chain).zmqTopics;
  const endpoints: Partial<Record<ZmqTopic, string>> = {};
  for (const entry of entries) {
    const match = /^([a-z]+)(?:=(.+))?$/.exec(entry.trim());
    const topic = match?.[1] as ZmqTopic | undefined;
    if (!match || !topic || !ZMQ_TOPICS.includes(topic)) throw new ConfigError(`${path}: unknown topic "${entry}" (use ${ZMQ_TOPICS.join(', ')}, optionally topic=tcp://host:port)`);
    const url = match[2] ?? zmqUrl;
    if (url === null) throw new ConfigError(`${path}: ${topic} has no endpoint: set networks.${id}.zmq_url or write ${topic}=tcp://host:port`);
    if (!/^[a-z][a-z0-9+.-]*:\/\/[^\s]+$/i.test(url)) throw new ConfigError(`${path}: ${topic} endpoint must be a URL, got "${url}"`);
    if (endpoints[topic] !== undefined) throw new ConfigError(`${path} lists ${topic} twice`);
    endpoints[topic] = url;
  }
  if (endpoints.sequence !== undefined && Object.keys(endpoints).length > 1) {
    throw new ConfigError(`${path}: follow either sequence (it carries everything) or hashblock/hashtx, not both`);
  }
  if (Object.keys(endpoints).length === 0) throw new ConfigError(`${path} is empty: leave zmq_url and zmq_topics out to poll the node`);
  return { endpoints, reconcileMs };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
