/**
 * Typed errors with stable codes. Entry layers map these codes to each API's
 * error shape once, so no route needs its own try/catch.
 */
export type ErrorCode =
  | 'PARSE_ERROR'
  | 'INVALID_ARGUMENT'
  | 'NOT_FOUND'
  | 'UNSUPPORTED_NETWORK'
  | 'RPC_ERROR'
  | 'RPC_UNAVAILABLE'
  | 'CONFIG_ERROR'
  | 'STORE_ERROR'
  | 'UNAUTHORIZED'
  | 'QUOTA_EXCEEDED'
  | 'CONCURRENCY_EXCEEDED'
  | 'RATE_LIMITED'
  | 'SERVER_BUSY'
  | 'REJECTED'
  | 'INDEX_SYNCING'
  | 'INDEX_BUILDING'
  | 'RAW_TX_UNAVAILABLE'
  | 'WRITER_STANDBY'
  | 'STORE_UNAVAILABLE'
  | 'EVENTS_EXPIRED';

export class OutpointError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** Malformed bytes (block, transaction, script push data). `offset` is where reading failed. */
export class ParseError extends OutpointError {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super('PARSE_ERROR', `${message} at offset ${offset}`);
    this.offset = offset;
  }
}

/** A caller-supplied value (address, txid, height, config key) is not acceptable. `field` names it. */
export class InvalidArgumentError extends OutpointError {
  readonly field: string;
  constructor(field: string, message: string) {
    super('INVALID_ARGUMENT', message);
    this.field = field;
  }
}

export class NotFoundError extends OutpointError {
  readonly field: string;
  constructor(field: string, message: string) {
    super('NOT_FOUND', message);
    this.field = field;
  }
}

export class UnsupportedNetworkError extends OutpointError {
  constructor(network: string) {
    super('UNSUPPORTED_NETWORK', `network ${network} is not supported by this server`);
  }
}

/** An error answered by a full node's JSON-RPC interface, with the node's own code and message. */
export class RpcError extends OutpointError {
  readonly rpcCode: number;
  readonly method: string;
  constructor(method: string, rpcCode: number, message: string) {
    super('RPC_ERROR', message);
    this.rpcCode = rpcCode;
    this.method = method;
  }
}

/** The node could not be reached (connection refused, timeout) after the configured retries. */
export class RpcUnavailableError extends OutpointError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RPC_UNAVAILABLE', message, options);
  }
}

export class ConfigError extends OutpointError {
  constructor(message: string) {
    super('CONFIG_ERROR', message);
  }
}

export class StoreError extends OutpointError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('STORE_ERROR', message, options);
  }
}

/** What IndexSyncingError reports: the network's sync status as of the request (ETA counted down to now). */
export interface IndexSyncingDetails {
  readonly network: string;
  readonly phase: string;
  /** Height of the last block written (null: none yet). */
  readonly height: number | null;
  /** The node's tip when the indexer last looked (null: not known yet). */
  readonly targetHeight: number | null;
  /** Seconds left (null: no estimate yet). */
  readonly etaSeconds: number | null;
  /** When a client should ask again, in seconds (the Retry-After header). */
  readonly retryAfterSeconds: number;
}

/**
 * The network's index is in its initial sync and answers no chain queries (HTTP 503 with Retry-After).
 * The message is the one clients see: "index is syncing: height H of T, about N min left", with "height 0"
 * before the first block, "of unknown" before the node's tip is known and "time left unknown" before an ETA.
 */
export class IndexSyncingError extends OutpointError {
  readonly details: IndexSyncingDetails;
  constructor(details: IndexSyncingDetails) {
    super('INDEX_SYNCING', indexSyncingMessage(details));
    this.details = details;
  }
}

export function indexSyncingMessage(d: Pick<IndexSyncingDetails, 'height' | 'targetHeight' | 'etaSeconds'>): string {
  const target = d.targetHeight === null ? 'unknown' : String(d.targetHeight);
  const left = d.etaSeconds === null ? 'time left unknown' : `about ${Math.ceil(d.etaSeconds / 60)} min left`;
  return `index is syncing: height ${d.height ?? 0} of ${target}, ${left}`;
}

/**
 * A lookup by scripthash while the store's scripthash index is still being built in the background over the scripts
 * stored before it existed (docs/schema.md, "Scripthash index"): temporary, never a wrong or partial answer.
 */
export class ScriptHashIndexBuildingError extends OutpointError {
  constructor(readonly progress: number) {
    super('INDEX_BUILDING', `the scripthash index is being built (${Math.floor(progress * 100)} % done); ask again later`);
  }
}

/**
 * A transaction's raw bytes are kept by the node (`[store] raw_txs = "node"`) and the node cannot give them now (down,
 * or the block pruned): HTTP 503 with Retry-After on the routes that show raw bytes; everything else keeps answering.
 */
export class RawTxUnavailableError extends OutpointError {
  /** When a client should ask again, in seconds (the Retry-After header). */
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number, options?: { cause?: unknown }) {
    super('RAW_TX_UNAVAILABLE', message, options);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The network refused a transaction; `reason` is the node's own message (e.g. "bad-txns-inputs-missingorspent"). */
export class TxRejectedError extends OutpointError {
  readonly reason: string;
  constructor(reason: string) {
    super('REJECTED', `transaction rejected: ${reason}`);
    this.reason = reason;
  }
}

/** v3: the API-KEY header is missing, unknown, revoked, or its account's plan period is over (HTTP 401). */
export class UnauthorizedError extends OutpointError {
  constructor(message: string) {
    super('UNAUTHORIZED', message);
  }
}

/** v3: the account used its plan's requests for the current UTC day (HTTP 429). */
export class QuotaExceededError extends OutpointError {
  constructor(
    readonly limit: number,
    /** Seconds until the next UTC midnight, when the count starts again. */
    readonly retryAfter: number,
  ) {
    super('QUOTA_EXCEEDED', `daily request quota of ${limit} exceeded; it resets at 00:00 UTC (in ${retryAfter} s)`);
  }
}

/** v3: the account already has its plan's max_concurrent_requests in flight (HTTP 429, retry when one is done). */
export class ConcurrencyExceededError extends OutpointError {
  constructor(readonly limit: number) {
    super('CONCURRENCY_EXCEEDED', `too many concurrent requests: the plan allows ${limit} at once; retry when one has finished`);
  }
}

/**
 * v3: this client's network sent too many requests refused with 401 in the current window; further requests are
 * refused with 429 before their key is looked up (services/limits/key-failure-limit.ts).
 */
export class KeyFailuresLimitedError extends OutpointError {
  constructor(readonly retryAfter: number) {
    super('RATE_LIMITED', `too many requests with a missing or invalid API key from your address; retry in ${retryAfter} s`);
  }
}

/**
 * Dashboard: a sign-in, reset or code failed. One message whatever the cause (unknown email, wrong password,
 * no password set), so the answer never tells whether an account exists.
 */
export class InvalidCredentialsError extends OutpointError {
  constructor(message = 'The email address or the password is wrong.') {
    super('UNAUTHORIZED', message);
  }
}

/** Dashboard: the action needs an administrator (or another account's data was asked for). */
export class ForbiddenError extends OutpointError {
  constructor(message = 'This page is for administrators.') {
    super('UNAUTHORIZED', message);
  }
}

/**
 * Dashboard: too many attempts (sign-in, reset, sign-up) from this IP or for this email in the current window.
 * The text names the wait, never how many attempts are left, and is the same for unknown emails.
 */
export class TooManyAttemptsError extends OutpointError {
  constructor(readonly retryAfter: number, message?: string) {
    super('RATE_LIMITED', message ?? `Too many attempts. Try again in ${Math.max(1, Math.ceil(retryAfter / 60))} minute${retryAfter > 60 ? 's' : ''}.`);
  }
}

/**
 * A client's or an account's budget of something expensive is spent for now: addresses derived for wallets per client
 * network and minute, catch-up feed bytes per client network and minute, an account's webhook deliveries of the day.
 * HTTP 429 with Retry-After; the message names the budget and when it comes back.
 */
export class BudgetSpentError extends OutpointError {
  constructor(message: string, readonly retryAfter: number) {
    super('RATE_LIMITED', message);
  }
}

/**
 * Every slot of a shared expensive resource is taken and its queue is full (wallet derivations): the request is not
 * served now, whoever sent it. HTTP 503 with Retry-After.
 */
export class ServerBusyError extends OutpointError {
  constructor(message: string, readonly retryAfter: number) {
    super('SERVER_BUSY', message);
  }
}

/** Dashboard: every password-hash slot and its queue are taken (a sign-in flood); the caller may retry shortly. */
export class BusyError extends OutpointError {
  constructor() {
    super('RATE_LIMITED', 'The server is busy checking other sign-ins. Try again in a few seconds.');
  }
}

/**
 * Another process holds the network's writer lock (PostgreSQL advisory lock): this indexer stands by and tries
 * again, taking over when the holder's session ends (it died, was stopped, or lost its database connection).
 */
export class WriterStandbyError extends OutpointError {
  /** `lock`: what shows it (PostgreSQL: the network's advisory lock; SQLite: the writer lock file). */
  constructor(readonly network: string, lock = 'advisory lock held') {
    super('WRITER_STANDBY', `another indexer writes network ${network} (${lock}); standing by`);
  }
}

/** The database does not answer (restarting, unreachable): temporary; APIs answer 503 with Retry-After. */
export class StoreUnavailableError extends OutpointError {
  readonly retryAfterSeconds = 5;
  constructor(detail: string, options?: { cause?: unknown }) {
    super('STORE_UNAVAILABLE', `the store is unavailable: ${detail}`, options);
  }
}

/**
 * A catch-up cursor (`after`) the event log can no longer answer from: older than what is retained, or newer than
 * any id given (the log was reset). The client must re-read current state instead (HTTP 410; docs/realtime.md).
 */
export class EventsExpiredError extends OutpointError {
  readonly field = 'after';
  constructor(message: string) {
    super('EVENTS_EXPIRED', message);
  }
}
