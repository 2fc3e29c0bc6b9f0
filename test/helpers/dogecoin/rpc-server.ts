/**
 * 1.14's JSON-RPC over HTTP (httprpc.cpp, rpc/server.cpp, rpc/protocol.cpp): POST to "/" only, Basic auth with the
 * rpcauth user or the cookie (a wrong password waits 250 ms, then 401), one request or a batch. A single request
 * that fails answers with an HTTP error status and a JSON body (400 for -32600, 404 for -32601, else 500); a batch
 * answers 200 with each failure in its slot. While warming up every call fails with -28. Replies end with "\n".
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { CHAIN_METHODS } from './rpc-chain-methods.js';
import { checkArity, type Method, type RpcContext } from './rpc-context.js';
import { NODE_METHODS } from './rpc-node-methods.js';
import {
  Params, RpcFailure, RPC_IN_WARMUP, RPC_INVALID_PARAMETER, RPC_INVALID_REQUEST, RPC_METHOD_NOT_FOUND, RPC_MISC_ERROR, RPC_PARSE_ERROR, writeJson,
} from './rpc-values.js';

const METHODS: Readonly<Record<string, Method>> = { ...CHAIN_METHODS, ...NODE_METHODS };

export interface RpcServerOptions {
  readonly ctx: RpcContext;
  /** Accepted `user:password` pairs (rpcauth and the current cookie). */
  readonly credentials: () => readonly string[];
  /** Non-null while warming up: the -28 message (e.g. "Loading block index..."). */
  readonly warmupStatus: () => string | null;
}

interface Reply {
  readonly result: unknown;
  readonly error: { code: number; message: string } | null;
  readonly id: unknown;
}

export class RpcServer {
  /** Calls answered per method (batch items count one each): what a client costs the node. */
  readonly calls = new Map<string, number>();
  readonly #server: http.Server;
  #port = 0;

  constructor(private readonly options: RpcServerOptions) {
    this.#server = http.createServer((req, res) => void this.#handle(req, res));
    this.#server.keepAliveTimeout = 30_000;
  }

  get port(): number {
    return this.#port;
  }

  async listen(port = 0): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, '127.0.0.1', () => resolve());
    });
    this.#port = (this.#server.address() as AddressInfo).port;
    return this.#port;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    // RegisterHTTPHandler("/", true, …): an exact match; other paths fall through to libevent's 404.
    if (req.url !== '/') return void res.writeHead(404).end();
    if (req.method !== 'POST') return void res.writeHead(405).end('JSONRPC server handles only POST requests');
    const auth = req.headers.authorization;
    if (auth === undefined) return void res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="jsonrpc"' }).end();
    if (!this.#authorized(auth)) {
      await delay(250); // "Deter brute-forcing"
      return void res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="jsonrpc"' }).end();
    }
    let request: unknown;
    try {
      request = JSON.parse(body);
    } catch {
      return this.#errorReply(res, new RpcFailure(RPC_PARSE_ERROR, 'Parse error'), null);
    }
    if (Array.isArray(request)) {
      const replies = request.map((one) => this.#execOne(one));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(`${writeJson(replies)}\n`);
      return;
    }
    if (request === null || typeof request !== 'object') {
      return this.#errorReply(res, new RpcFailure(RPC_PARSE_ERROR, 'Top-level object parse error'), null);
    }
    const id = (request as Record<string, unknown>).id ?? null;
    try {
      const result = this.#execute(request as Record<string, unknown>);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(`${writeJson({ result, error: null, id })}\n`);
    } catch (err) {
      this.#errorReply(res, toFailure(err), id);
    }
  }

  #authorized(header: string): boolean {
    if (!header.startsWith('Basic ')) return false;
    const userPass = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    return this.options.credentials().includes(userPass);
  }

  /** JSONErrorReply: 400 for an invalid request, 404 for an unknown method, 500 for everything else. */
  #errorReply(res: http.ServerResponse, failure: RpcFailure, id: unknown): void {
    const status = failure.code === RPC_INVALID_REQUEST ? 400 : failure.code === RPC_METHOD_NOT_FOUND ? 404 : 500;
    const reply: Reply = { result: null, error: { code: failure.code, message: failure.message }, id };
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(`${writeJson(reply)}\n`);
  }

  /** JSONRPCExecOne: a batch item's reply, its failure in the error slot. */
  #execOne(request: unknown): Reply {
    const id = request !== null && typeof request === 'object' && !Array.isArray(request) ? ((request as Record<string, unknown>).id ?? null) : null;
    try {
      if (request === null || typeof request !== 'object' || Array.isArray(request)) throw new RpcFailure(RPC_INVALID_REQUEST, 'Invalid Request object');
      return { result: this.#execute(request as Record<string, unknown>), error: null, id };
    } catch (err) {
      const failure = toFailure(err);
      return { result: null, error: { code: failure.code, message: failure.message }, id };
    }
  }

  /** JSONRPCRequest::parse, then CRPCTable::execute (warm-up first, then the method lookup). */
  #execute(request: Record<string, unknown>): unknown {
    const { method, params } = request;
    if (method === undefined) throw new RpcFailure(RPC_INVALID_REQUEST, 'Missing method');
    if (typeof method !== 'string') throw new RpcFailure(RPC_INVALID_REQUEST, 'Method must be a string');
    if (params !== undefined && params !== null && typeof params !== 'object') throw new RpcFailure(RPC_INVALID_REQUEST, 'Params must be an array or object');
    const warmup = this.options.warmupStatus();
    if (warmup !== null) throw new RpcFailure(RPC_IN_WARMUP, warmup);
    this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
    const spec = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
    if (!spec) throw new RpcFailure(RPC_METHOD_NOT_FOUND, 'Method not found');
    const args = new Params(positional(spec, params ?? []));
    checkArity(method, spec, args);
    return spec.run(args, this.options.ctx);
  }
}

/** transformNamedArguments: named parameters become positions; an unknown name is -8. */
function positional(spec: Method, params: object): unknown[] {
  if (Array.isArray(params)) return params as unknown[];
  const named = params as Record<string, unknown>;
  for (const name of Object.keys(named)) {
    if (!spec.args.includes(name)) throw new RpcFailure(RPC_INVALID_PARAMETER, `Unknown named parameter ${name}`);
  }
  const out: unknown[] = [];
  spec.args.forEach((name, i) => {
    if (name in named) out[i] = named[name];
  });
  // Positions before the last given one are null, as in Core.
  return Array.from({ length: out.length }, (_v, i) => out[i] ?? null);
}

/** Anything a method throws that is not an RpcFailure is a std::exception: RPC_MISC_ERROR with its text. */
function toFailure(err: unknown): RpcFailure {
  if (err instanceof RpcFailure) return err;
  return new RpcFailure(RPC_MISC_ERROR, err instanceof Error ? err.message : String(err));
}
