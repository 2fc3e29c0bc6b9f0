/**
 * Webhook calls over node:http(s) (docs/webhooks.md, Safety). The host is resolved once per call through the
 * request's own `lookup` (hook-resolver.ts: c-ares with a deadline, off libuv's thread pool), which refuses private
 * addresses before the socket connects to exactly the address it checked: no second DNS lookup between the check and
 * the connection. Refusals never say what a name resolved to (that would map a private network's DNS for a client). No redirect is followed (node:http never
 * does), the answer's body is read to at most 64 KiB and dropped, the whole call ends after `timeoutMs`, and per
 * receiver at most `socketsPerHost` sockets are open, `maxSockets` in all, so slow receivers cannot hold more.
 */
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { WebhookRequest, WebhookResponse, WebhookSender } from '../core/sources/webhook-sender.js';
import { parseUrlOrNull } from '../core/infrastructure/safe-parse.js';
import { HookResolver, ResolveError } from './hook-resolver.js';
import { isPrivateAddress } from './private-addresses.js';

export interface WebhookHttpOptions {
  readonly allowPrivateTargets: boolean;
  /** A 2xx within this long is delivered (the 10 s). */
  readonly timeoutMs?: number;
  readonly socketsPerHost?: number;
  readonly maxSockets?: number;
  /** A target's name unresolved this long is refused (`[webhooks] dns_timeout_ms`; default 5 s). */
  readonly dnsTimeoutMs?: number;
  /** DNS servers for targets' names (`[webhooks] dns_servers`); default the system's. */
  readonly dnsServers?: readonly string[];
}

const MAX_ANSWER_BYTES = 64 * 1024;

class RefusedTarget extends Error {}

export class WebhookHttpSender implements WebhookSender {
  private readonly agents: { readonly http: http.Agent; readonly https: https.Agent };
  private readonly timeoutMs: number;
  private readonly resolver: HookResolver;

  constructor(private readonly options: WebhookHttpOptions) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.resolver = new HookResolver({ timeoutMs: options.dnsTimeoutMs ?? 5000, ...(options.dnsServers ? { servers: options.dnsServers } : {}) });
    const limits = { keepAlive: true, maxSockets: options.socketsPerHost ?? 4, maxTotalSockets: options.maxSockets ?? 64, maxFreeSockets: 4 };
    this.agents = { http: new http.Agent(limits), https: new https.Agent(limits) };
  }

  async checkTarget(url: string): Promise<string | null> {
    const parsed = parseUrlOrNull(url);
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return 'the url must be http:// or https://';
    if (parsed.username || parsed.password) return 'the url may not carry credentials';
    if (this.options.allowPrivateTargets) return null;
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) return isPrivateAddress(host) ? `${host} is a private address` : null;
    try {
      const addresses = await this.resolver.resolve(host);
      return addresses.some((a) => isPrivateAddress(a.address)) ? `${host} resolves to a private address` : null;
    } catch (error) {
      return `${host} ${error instanceof ResolveError ? error.message : 'does not resolve'}`;
    }
  }

  send(request: WebhookRequest): Promise<WebhookResponse> {
    const url = parseUrlOrNull(request.url);
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return Promise.resolve({ ok: false, status: null, error: 'bad url' });
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !this.options.allowPrivateTargets && isPrivateAddress(host)) {
      return Promise.resolve({ ok: false, status: null, error: `refused: ${host} is a private address` });
    }
    const lib = url.protocol === 'https:' ? https : http;
    return new Promise<WebhookResponse>((resolve) => {
      const req = lib.request(url, {
        method: 'POST',
        agent: url.protocol === 'https:' ? this.agents.https : this.agents.http,
        headers: { ...request.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(request.body), 'user-agent': 'Outpoint-Webhooks' },
        lookup: this.lookup,
        timeout: this.timeoutMs,
      });
      const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      req.on('response', (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        const done = (): void => {
          clearTimeout(deadline);
          const status = res.statusCode ?? 0;
          resolve(status >= 200 && status < 300 ? { ok: true, status } : { ok: false, status, error: `HTTP ${status}` });
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      req.on('error', (error: Error) => {
        clearTimeout(deadline);
        resolve({ ok: false, status: null, error: error instanceof RefusedTarget ? `refused: ${error.message}` : error.message.slice(0, 200) });
      });
      req.end(request.body);
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** Resolves, refuses private answers, and hands the socket the address it checked. */
  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolver.resolve(hostname).then((addresses) => {
      const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
      const usable = this.options.allowPrivateTargets ? wanted : wanted.filter((a) => !isPrivateAddress(a.address));
      const first = usable[0];
      if (!first) return callback(new RefusedTarget(`${hostname} resolves only to private addresses`), '', 4);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [first]);
      return callback(null, first.address, first.family);
    }, (error: Error) => callback(Object.assign(new Error(`${hostname} ${error.message}`), { code: (error as ResolveError).code }), '', 4));
  };
}
