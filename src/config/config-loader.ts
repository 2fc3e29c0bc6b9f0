import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { ConfigError, NETWORK_IDS, PRICE_SOURCE_IDS, isNetworkId, type ChainKind, type NetworkId, type PriceSourceId, type RawTxMode } from '../core/index.js';
import { NETWORK_KEYS, SECTION_KEYS, TOP_LEVEL_KEYS, type KeySpec } from './config-schema.js';
import type { AccountsConfig, MarketConfig, NetworkConfig, OutpointConfig, P2pConfig, Registration, ZmqConfig } from './config-types.js';
import { ZMQ_TOPICS, getNetworkParams, type ZmqTopic } from '../chains/addressing.js';
import { int, isTable, optionalStr, str, type Raw } from './config-values.js';
import { buildOpsConfig } from './ops-config.js';


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
      throw new ConfigError(`config file ${options.file} is not valid TOML: ${(err as Error).message}`);
    }
  }
  const source = options.file ?? 'configuration';
  checkKnownKeys(raw, source);
  applyEnv(raw, options.env ?? process.env);
  return deepFreeze(buildConfig(raw));
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

/** `[realtime] send_threads` by default: half the cores; the other half stays for the event loop, the indexer and the node. */
export function defaultSendThreads(): number {
  return Math.max(1, Math.floor(availableParallelism() / 2));
}

function buildConfig(raw: Raw): OutpointConfig {
  const dataDir = resolve(str(raw, 'data_dir', TOP_LEVEL_KEYS['data_dir']!, './data'));
  const section = (name: string): Raw => (isTable(raw[name]) ? (raw[name] as Raw) : {});
  const spec = (s: string, k: string): KeySpec => SECTION_KEYS[s]![k]!;
  const host = str(section('http'), 'host', spec('http', 'host'), '127.0.0.1', 'http.host');
  const port = int(section('http'), 'port', spec('http', 'port'), 3000, 'http.port');
  const rateLimitPerSecond = int(section('http'), 'rate_limit_per_second', spec('http', 'rate_limit_per_second'), 5, 'http.rate_limit_per_second');
  const tls = buildTls(section('http'));
  const networksRaw = isTable(raw['networks']) ? (raw['networks'] as Raw) : {};
  const networks = Object.entries(networksRaw).map(([id, table]) => buildNetwork(id as NetworkId, table as Raw));
  const publicUrl = str(section('http'), 'public_url', spec('http', 'public_url'), `${tls ? 'https' : 'http'}://${host}:${port}`, 'http.public_url').replace(/\/+$/, '');
  return {
    dataDir,
    store: buildStore(section('store'), dataDir),
    http: {
      host,
      port,
      publicUrl,
      rateLimitPerSecond,
      // Off by default: single-host benchmarks and clients behind one proxy address must not be throttled.
      maxConcurrentPerIp: int(section('http'), 'max_concurrent_per_ip', spec('http', 'max_concurrent_per_ip'), 0, 'http.max_concurrent_per_ip'),
      tls,
    },
    web: {
      rateLimitPerSecond: int(section('web'), 'rate_limit_per_second', spec('web', 'rate_limit_per_second'), rateLimitPerSecond, 'web.rate_limit_per_second'),
    },
    realtime: {
      appKey: str(section('realtime'), 'app_key', spec('realtime', 'app_key'), 'outpoint', 'realtime.app_key'),
      sendThreads: int(section('realtime'), 'send_threads', spec('realtime', 'send_threads'), defaultSendThreads(), 'realtime.send_threads'),
    },
    redis: { url: optionalStr(section('redis'), 'url', spec('redis', 'url'), 'redis.url') },
    market: buildMarket(section('market')),
    ...buildOpsConfig(section),
    accounts: buildAccounts(section('accounts')),
    smtp: {
      url: optionalStr(section('smtp'), 'url', spec('smtp', 'url'), 'smtp.url'),
      from: str(section('smtp'), 'from', spec('smtp', 'from'), `Outpoint <outpoint@${new URL(publicUrl).hostname}>`, 'smtp.from'),
    },
    networks,
  };
}

function buildStore(table: Raw, dataDir: string): OutpointConfig['store'] {
  const spec = (k: string): KeySpec => SECTION_KEYS['store']![k]!;
  const url = str(table, 'url', spec('url'), `sqlite:${join(dataDir, 'outpoint.db')}`, 'store.url');
  if (!/^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(url)) throw new ConfigError(`store.url must be sqlite:PATH or postgres://…, got "${url}"`);
  const rawTxs = str(table, 'raw_txs', spec('raw_txs'), 'store', 'store.raw_txs') as RawTxMode;
  const readUrls = list(table, 'read_urls', spec('read_urls'), 'store.read_urls', []);
  for (const readUrl of readUrls) {
    if (!/^postgres(ql)?:\/\/.+$/.test(readUrl)) throw new ConfigError(`store.read_urls: each must be a postgres://… URL, got "${readUrl.replace(/\/\/[^@/]*@/, '//***@')}"`);
  }
  if (readUrls.length > 0 && !url.startsWith('postgres')) throw new ConfigError('store.read_urls needs a PostgreSQL store.url: replicas are PostgreSQL standbys of it');
  return {
    url, rawTxs, rawTxCacheBytes: int(table, 'raw_tx_cache_mb', spec('raw_tx_cache_mb'), 64, 'store.raw_tx_cache_mb') * 1024 * 1024,
    readUrls, maxReplicaLagMs: int(table, 'max_replica_lag_ms', spec('max_replica_lag_ms'), 2_000, 'store.max_replica_lag_ms'),
  };
}

/** Both files or neither: half a TLS setup is a mistake to report, not to serve plain HTTP for. */
function buildTls(table: Raw): OutpointConfig['http']['tls'] {
  const spec = (k: string): KeySpec => SECTION_KEYS['http']![k]!;
  const certFile = optionalStr(table, 'tls_cert_file', spec('tls_cert_file'), 'http.tls_cert_file');
  const keyFile = optionalStr(table, 'tls_key_file', spec('tls_key_file'), 'http.tls_key_file');
  if ((certFile === null) !== (keyFile === null)) throw new ConfigError('http.tls_cert_file and http.tls_key_file go together: set both for HTTPS, or neither');
  return certFile !== null && keyFile !== null ? { certFile: resolve(certFile), keyFile: resolve(keyFile) } : null;
}

function buildMarket(table: Raw): MarketConfig {
  const spec = (k: string): KeySpec => SECTION_KEYS['market']![k]!;
  // Prices out of the box, as the spec's get_price promises (seven exchanges); `sources = []` turns polling off.
  const sources = list(table, 'sources', spec('sources'), 'market.sources', PRICE_SOURCE_IDS) as PriceSourceId[];
  const intervalMs = int(table, 'interval_ms', spec('interval_ms'), 15_000, 'market.interval_ms');
  const maxAgeS = int(table, 'max_age_s', spec('max_age_s'), 300, 'market.max_age_s');
  // Otherwise every price would turn stale between two polls and answers would flicker.
  if (sources.length > 0 && maxAgeS * 1000 <= intervalMs) {
    throw new ConfigError(`market.max_age_s (${maxAgeS} s) must be longer than market.interval_ms (${intervalMs} ms)`);
  }
  const baseUrls: Partial<Record<PriceSourceId, string>> = {};
  for (const id of PRICE_SOURCE_IDS) {
    const url = optionalStr(table, `${id}_url`, spec(`${id}_url`), `market.${id}_url`);
    if (url !== null) baseUrls[id] = url;
  }
  return { sources, intervalMs, timeoutMs: int(table, 'timeout_ms', spec('timeout_ms'), 5000, 'market.timeout_ms'), maxAgeS, baseUrls };
}

function buildAccounts(table: Raw): AccountsConfig {
  const spec = (k: string): KeySpec => SECTION_KEYS['accounts']![k]!;
  const number = (k: string, fallback: number): number => int(table, k, spec(k), fallback, `accounts.${k}`);
  const secretKey = optionalStr(table, 'secret_key', spec('secret_key'), 'accounts.secret_key');
  if (secretKey !== null && !/^[0-9a-fA-F]{64}$/.test(secretKey)) throw new ConfigError('accounts.secret_key must be 64 hex digits (32 random bytes, e.g. `openssl rand -hex 32`)');
  return {
    registration: str(table, 'registration', spec('registration'), 'invite', 'accounts.registration') as Registration,
    defaultPlan: str(table, 'default_plan', spec('default_plan'), 'free', 'accounts.default_plan'),
    secretKey: secretKey?.toLowerCase() ?? null,
    keyGraceSeconds: number('key_grace_seconds', 86_400),
    sessionIdleHours: number('session_idle_hours', 72),
    sessionMaxDays: number('session_max_days', 30),
    usageKeepDays: number('usage_keep_days', 400),
    passwordHashConcurrency: number('password_hash_concurrency', 2),
    signinFailuresPerIp: number('signin_failures_per_ip', 30),
    signinFailuresPerAccount: number('signin_failures_per_account', 10),
  };
}

/** A TOML array of strings, or (from the environment) one comma-separated string; members checked against oneOf. */
function list(table: Raw, key: string, spec: KeySpec, path: string, fallback: readonly string[]): string[] {
  const value = table[key];
  if (value === undefined) return [...fallback];
  const items = typeof value === 'string' ? value.split(',').map((v) => v.trim()).filter((v) => v !== '') : value;
  if (!Array.isArray(items) || !items.every((v): v is string => typeof v === 'string')) {
    throw new ConfigError(`${path} must be a list of strings (${spec.doc})`);
  }
  for (const [i, item] of items.entries()) {
    if (spec.oneOf && !spec.oneOf.includes(item)) throw new ConfigError(`${path}: unknown "${item}" (use any of ${spec.oneOf.join(', ')})`);
    if (items.indexOf(item) !== i) throw new ConfigError(`${path} lists "${item}" twice`);
  }
  return items;
}

function buildNetwork(id: NetworkId, table: Raw): NetworkConfig {
  const at = (k: string): string => `networks.${id}.${k}`;
  const defaultChain: ChainKind = id.endsWith('TEST') ? 'test' : 'main';
  const chain = str(table, 'chain', NETWORK_KEYS['chain']!, defaultChain, at('chain')) as ChainKind;
  if (chain === 'test' && !id.endsWith('TEST')) throw new ConfigError(`${at('chain')}: ${id} is a main network; use ${id}TEST for its test network`);
  if (chain === 'main' && id.endsWith('TEST')) throw new ConfigError(`${at('chain')}: ${id} is a test network; it cannot run on chain "main"`);
  const rpcUrl = optionalStr(table, 'rpc_url', NETWORK_KEYS['rpc_url']!, at('rpc_url'));
  if (rpcUrl === null) throw new ConfigError(`${at('rpc_url')} is required`);
  const zmqUrl = optionalStr(table, 'zmq_url', NETWORK_KEYS['zmq_url']!, at('zmq_url'));
  return {
    id,
    chain,
    rpcUrl,
    rpcCookie: optionalStr(table, 'rpc_cookie', NETWORK_KEYS['rpc_cookie']!, at('rpc_cookie')),
    zmq: buildZmq(id, chain, table, zmqUrl),
    pollMs: int(table, 'poll_ms', NETWORK_KEYS['poll_ms']!, 250, at('poll_ms')),
    syncBatchTxs: int(table, 'sync_batch_txs', NETWORK_KEYS['sync_batch_txs']!, 20000, at('sync_batch_txs')),
    syncRequests: int(table, 'sync_requests', NETWORK_KEYS['sync_requests']!, 4, at('sync_requests')),
    mempoolRemovedKeepHours: int(table, 'mempool_removed_keep_hours', NETWORK_KEYS['mempool_removed_keep_hours']!, 72, at('mempool_removed_keep_hours')),
    p2p: buildP2p(table, chain, at),
  };
}

/** host:port, [v6]:port or a bare host (the network's default port): what the listener can dial. */
const PEER_ADDRESS = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/;

/**
 * Discovery is on by default on main and test chains (the node knows public peers) and off on regtest, whose nodes
 * are the operator's own and know only each other: there `p2p_peers` says which to watch.
 */
function buildP2p(table: Raw, chain: ChainKind, at: (k: string) => string): P2pConfig {
  const peers = list(table, 'p2p_peers', NETWORK_KEYS['p2p_peers']!, at('p2p_peers'), []);
  for (const peer of peers) {
    const match = PEER_ADDRESS.exec(peer);
    const port = match?.[2] === undefined ? 1 : Number(match[2]);
    if (!match || port < 1 || port > 65535) throw new ConfigError(`${at('p2p_peers')}: "${peer}" is not host:port`);
  }
  const discover = bool(table, 'p2p_discover', NETWORK_KEYS['p2p_discover']!, chain !== 'regtest', at('p2p_discover'));
  const targetPeers = int(table, 'p2p_target_peers', NETWORK_KEYS['p2p_target_peers']!, 8, at('p2p_target_peers'));
  return { peers, discover, targetPeers, enabled: targetPeers > 0 && (peers.length > 0 || discover) };
}

function bool(table: Raw, key: string, spec: KeySpec, fallback: boolean, path: string): boolean {
  const value = table[key];
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|1)$/i.test(value.trim())) return true;
  if (typeof value === 'string' && /^(false|0)$/i.test(value.trim())) return false;
  throw new ConfigError(`${path} must be true or false (${spec.doc}), got ${JSON.stringify(value)}`);
}

/**
 * `zmq_url` is the endpoint of every topic in `zmq_topics` (default: what the coin's node publishes, see
 * NetworkParams.zmqTopics); a topic written `topic=tcp://…` has its own endpoint. No zmq_url and no topics: polling.
 */
function buildZmq(id: NetworkId, chain: ChainKind, table: Raw, zmqUrl: string | null): ZmqConfig | null {
  const path = `networks.${id}.zmq_topics`;
  const reconcileMs = table['zmq_reconcile_ms'] === undefined ? null : int(table, 'zmq_reconcile_ms', NETWORK_KEYS['zmq_reconcile_ms']!, 0, `networks.${id}.zmq_reconcile_ms`);
  const written = table['zmq_topics'] === undefined ? null : list(table, 'zmq_topics', NETWORK_KEYS['zmq_topics']!, path, []);
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
