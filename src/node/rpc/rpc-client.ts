import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { RpcError, RpcUnavailableError } from '../../core/domain/errors.js';
import { parseJsonExactDecimals } from './exact-json.js';

export interface RpcClientOptions {
  /** http://[user:pass@]host:port[/wallet/name] */
  readonly url: string;
  /** Core's `.cookie` (user:pass). Read at every call: the node rewrites it on each restart. Wins over URL credentials. */
  readonly cookieFile?: string;
  /** Whole-request deadline per attempt. Default 30 s. */
  readonly timeoutMs?: number;
  /** Extra attempts after a connection-level failure. Default 3. */
  readonly retries?: number;
  /** First backoff; doubles per attempt, capped at 5 s. Default 200 ms. */
  readonly backoffMs?: number;
  /** Core serves -rpcthreads (default 4) requests at once; more sockets only queue there. Default 4. */
  readonly maxSockets?: number;
}

export interface RpcCall {
  readonly method: string;
  readonly params?: readonly unknown[];
}

export interface CallOptions {
  /** Return non-integer JSON numbers as their literal text ("0.00012345"), for exact amounts. */
  readonly exactDecimals?: boolean;
}

/** Core's RPC_IN_WARMUP: the node is loading blocks/wallets and will answer soon. */
const RPC_IN_WARMUP = -28;
const MAX_BACKOFF_MS = 5_000;

/** A failure worth retrying: the node did not (yet) process the request. */
class TransientError extends Error {}

interface HttpAnswer {
  readonly status: number;
  /** The body's bytes: text only where it is decoded as JSON (a reader of the bytes themselves skips that). */
  readonly bytes: Buffer;
}

interface JsonRpcReply {
  readonly result?: unknown;
  readonly error?: { readonly code?: number; readonly message?: string } | null;
  readonly id?: unknown;
}

/** Bitcoin-Core-compatible JSON-RPC 1.0 client (bitcoind, litecoind, dogecoind) over keep-alive HTTP. */
export class RpcClient {
  readonly #url: URL;
  readonly #cookieFile: string | undefined;
  readonly #timeoutMs: number;
  readonly #retries: number;
  readonly #backoffMs: number;
  readonly #agent: http.Agent;
  #nextId = 0;

  constructor(options: RpcClientOptions) {
    this.#url = new URL(options.url);
    if (this.#url.protocol !== 'http:') throw new RangeError(`RPC url must be http: ${this.#url.protocol}`);
    this.#cookieFile = options.cookieFile;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#retries = options.retries ?? 3;
    this.#backoffMs = options.backoffMs ?? 200;
    this.#agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 4 });
  }

  async call<T = unknown>(method: string, params: readonly unknown[] = [], options: CallOptions = {}): Promise<T> {
    const body = JSON.stringify({ jsonrpc: '1.0', id: this.#nextId++, method, params });
    return this.#withRetries(method, async () => {
      const answer = await this.#post(body);
      const reply = this.#decode(method, answer, options) as JsonRpcReply;
      return unwrap(method, reply) as T;
    });
  }

  /**
   * A call whose successful reply `read` takes from the body's bytes; a body it does not know (null) is decoded as
   * call() does and its result given to `fromResult` (errors throw as from call()). For replies so large that decoding
   * them as JSON on the event loop matters: the node's txid list at every poll, its verbose mempool (on a worker).
   */
  async callReading<T>(
    method: string, params: readonly unknown[], read: (body: Buffer) => T | null | Promise<T | null>, fromResult: (result: unknown) => T, options: CallOptions = {},
  ): Promise<T> {
    const body = JSON.stringify({ jsonrpc: '1.0', id: this.#nextId++, method, params });
    return this.#withRetries(method, async () => {
      const answer = await this.#post(body);
      if (answer.status === 200) {
        const value = await read(answer.bytes);
        if (value !== null) return value;
      }
      // Errors, warm-up and anything unexpected take the ordinary path: the same errors as call().
      return fromResult(unwrap(method, this.#decode(method, answer, options) as JsonRpcReply));
    });
  }

  /** One HTTP request for many calls. Results come back in call order; a failed call's slot holds its RpcError. */
  async batch<T = unknown>(calls: readonly RpcCall[], options: CallOptions = {}): Promise<Array<T | RpcError>> {
    if (calls.length === 0) return [];
    const body = JSON.stringify(calls.map((c, id) => ({ jsonrpc: '1.0', id, method: c.method, params: c.params ?? [] })));
    const label = `batch(${calls[0]!.method}${calls.length > 1 ? `, +${calls.length - 1}` : ''})`;
    return this.#withRetries(label, async () => {
      const answer = await this.#post(body);
      const replies = this.#decode(label, answer, options);
      if (!Array.isArray(replies)) {
        // Core answers a whole-batch failure (e.g. a parse error) with a single object
        unwrap(label, replies as JsonRpcReply);
        throw new RpcUnavailableError(`${label}: node answered a batch with a non-array`);
      }
      const out = new Array<T | RpcError>(calls.length);
      const seen = new Array<boolean>(calls.length).fill(false);
      for (const reply of replies as JsonRpcReply[]) {
        const id = reply.id;
        if (typeof id !== 'number' || id < 0 || id >= calls.length || seen[id]) continue;
        seen[id] = true;
        const method = calls[id]!.method;
        try {
          out[id] = unwrap(method, reply) as T;
        } catch (err) {
          if (err instanceof RpcError) out[id] = err;
          else throw err;
        }
      }
      const missing = seen.indexOf(false);
      if (missing >= 0) throw new RpcUnavailableError(`${label}: reply for call ${missing} missing`);
      return out;
    });
  }

  /** Closes idle keep-alive sockets; in-flight requests finish. */
  close(): void {
    this.#agent.destroy();
  }

  async #withRetries<T>(label: string, attempt: () => Promise<T>): Promise<T> {
    let lastError: unknown;
    for (let i = 0; i <= this.#retries; i++) {
      if (i > 0) await delay(Math.min(this.#backoffMs * 2 ** (i - 1), MAX_BACKOFF_MS));
      try {
        return await attempt();
      } catch (err) {
        if (!(err instanceof TransientError)) throw err;
        lastError = err;
      }
    }
    const reason = lastError instanceof Error ? lastError.message : String(lastError);
    throw new RpcUnavailableError(`${label}: node unavailable after ${this.#retries + 1} attempt(s): ${reason}`, {
      cause: (lastError as Error | undefined)?.cause ?? lastError,
    });
  }

  #decode(label: string, answer: HttpAnswer, options: CallOptions): unknown {
    if (answer.status === 401) {
      // With a cookie, a 401 usually means the node restarted and rewrote it after we read it.
      if (this.#cookieFile !== undefined) throw new TransientError('HTTP 401 (stale cookie?)');
      throw new RpcUnavailableError(`${label}: RPC authentication failed (HTTP 401)`);
    }
    let parsed: unknown;
    const text = answer.bytes.toString('utf8');
    try {
      parsed = options.exactDecimals ? parseJsonExactDecimals(text) : JSON.parse(text);
    } catch {
      const excerpt = text.slice(0, 120).trim();
      // Core answers "Work queue depth exceeded" and similar overloads as 5xx plain text
      if (answer.status >= 500) throw new TransientError(`HTTP ${answer.status} ${excerpt}`);
      throw new RpcUnavailableError(`${label}: HTTP ${answer.status} without a JSON-RPC body: ${excerpt}`);
    }
    const items = Array.isArray(parsed) ? (parsed as JsonRpcReply[]) : [parsed as JsonRpcReply];
    for (const item of items) {
      if (item?.error?.code === RPC_IN_WARMUP) {
        throw new TransientError(`warming up: ${item.error.message ?? ''}`, {
          cause: new RpcError(label, RPC_IN_WARMUP, item.error.message ?? 'warming up'),
        });
      }
    }
    return parsed;
  }

  async #authorization(): Promise<string | undefined> {
    let credentials: string | undefined;
    if (this.#cookieFile !== undefined) {
      try {
        credentials = (await readFile(this.#cookieFile, 'utf8')).trim();
      } catch (err) {
        // The node deletes its cookie while stopped and writes it once RPC is up.
        throw new TransientError(`cannot read cookie ${this.#cookieFile}`, { cause: err });
      }
    } else if (this.#url.username !== '') {
      credentials = `${decodeURIComponent(this.#url.username)}:${decodeURIComponent(this.#url.password)}`;
    }
    return credentials === undefined ? undefined : `Basic ${Buffer.from(credentials).toString('base64')}`;
  }

  async #post(body: string, reusedSocketRetry = true): Promise<HttpAnswer> {
    const authorization = await this.#authorization();
    try {
      return await this.#request(body, authorization);
    } catch (err) {
      // A keep-alive socket the node closed while idle fails on reuse before the node saw the
      // request: resend once at once, without spending a retry.
      if (reusedSocketRetry && err instanceof TransientError && (err as { reusedSocket?: boolean }).reusedSocket) {
        return this.#post(body, false);
      }
      throw err;
    }
  }

  #request(body: string, authorization: string | undefined): Promise<HttpAnswer> {
    return new Promise<HttpAnswer>((resolve, reject) => {
      const headers: http.OutgoingHttpHeaders = {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      };
      if (authorization !== undefined) headers.authorization = authorization;
      const req = http.request(
        {
          agent: this.#agent,
          host: this.#url.hostname,
          port: this.#url.port === '' ? 80 : Number(this.#url.port),
          path: this.#url.pathname === '' ? '/' : this.#url.pathname,
          method: 'POST',
          headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            clearTimeout(timer);
            resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks) });
          });
          res.on('error', (err) => fail(err));
          res.on('close', () => {
            if (!res.complete) fail(new Error('connection closed mid-response'));
          });
        },
      );
      const fail = (err: Error): void => {
        clearTimeout(timer);
        const transient = new TransientError(describe(err), { cause: err });
        Object.assign(transient, { reusedSocket: req.reusedSocket && !timedOut });
        reject(transient);
      };
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        // ETIMEDOUT like a socket's own timeout, so callers can tell a hung node by its code (readiness does).
        req.destroy(Object.assign(new Error(`timed out after ${this.#timeoutMs} ms`), { code: 'ETIMEDOUT' }));
      }, this.#timeoutMs);
      req.on('error', fail);
      req.end(body);
    });
  }
}

function unwrap(method: string, reply: JsonRpcReply): unknown {
  if (reply === null || typeof reply !== 'object') throw new RpcUnavailableError(`${method}: malformed JSON-RPC reply`);
  if (reply.error !== undefined && reply.error !== null) {
    throw new RpcError(method, reply.error.code ?? 0, reply.error.message ?? 'unknown RPC error');
  }
  return reply.result ?? null;
}

function describe(err: Error): string {
  const code = (err as NodeJS.ErrnoException).code;
  return code !== undefined ? `${code} ${err.message}` : err.message;
}
