/**
 * An Electrum client for tests: JSON-RPC 2.0 over TCP, TLS (line-delimited) or WebSocket (one message per frame),
 * answers matched by id, notifications kept in arrival order for `nextNotification`, and raw access (lines as sent,
 * messages as received) for the limit and fuzz tests.
 */
import { createHash } from 'node:crypto';
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import WebSocket from 'ws';
import { waitFor } from './wait-for.js';

/** Electrum's key of an output script: sha256 of the script, byte-reversed, in hex. */
export function scripthashOf(script: Uint8Array): string {
  return Buffer.from(createHash('sha256').update(script).digest()).reverse().toString('hex');
}

export class ElectrumCallError extends Error {
  constructor(readonly method: string, readonly code: number, readonly rpcMessage: string) {
    super(`${method}: ${code} ${rpcMessage}`);
  }
}

export interface Notification {
  readonly method: string;
  readonly params: unknown[];
  /** performance.now() when it arrived. */
  readonly at: number;
}

export type ElectrumEndpoint =
  | { readonly kind: 'tcp'; readonly port: number }
  | { readonly kind: 'tls'; readonly port: number; readonly ca: string | Buffer }
  | { readonly kind: 'ws'; readonly url: string; readonly ca?: string | Buffer };

export class ElectrumTestClient {
  /** Every message received, parsed, in order (answers and notifications). */
  readonly received: unknown[] = [];
  readonly notifications: Notification[] = [];
  private nextId = 1;
  private buffered = '';
  private readonly pending = new Map<number | string, { method: string; resolve(v: unknown): void; reject(e: Error): void }>();
  private closedWith: Error | null = null;

  private constructor(private readonly write: (text: string) => void, private readonly end: () => void) {}

  static async connect(endpoint: ElectrumEndpoint): Promise<ElectrumTestClient> {
    if (endpoint.kind === 'ws') {
      const ws = new WebSocket(endpoint.url, endpoint.ca ? { ca: endpoint.ca } : {});
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      const client = new ElectrumTestClient((text) => ws.send(text), () => ws.close());
      ws.on('message', (data) => client.onMessage(data.toString()));
      ws.on('close', () => client.fail(new Error('connection closed')));
      ws.on('error', (e) => client.fail(e));
      return client;
    }
    const socket: Socket = endpoint.kind === 'tcp'
      ? netConnect({ host: '127.0.0.1', port: endpoint.port })
      : tlsConnect({ host: '127.0.0.1', port: endpoint.port, ca: endpoint.ca, servername: 'localhost' });
    await new Promise<void>((resolve, reject) => {
      socket.once(endpoint.kind === 'tcp' ? 'connect' : 'secureConnect', () => resolve());
      socket.once('error', reject);
    });
    const client = new ElectrumTestClient((text) => socket.write(`${text}\n`), () => socket.destroy());
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      const lines = (client.buffered + chunk).split('\n');
      client.buffered = lines.pop()!;
      for (const line of lines) if (line.trim() !== '') client.onMessage(line);
    });
    socket.on('close', () => client.fail(new Error('connection closed')));
    socket.on('error', (e) => client.fail(e));
    return client;
  }

  get closed(): boolean {
    return this.closedWith !== null;
  }

  request<T = unknown>(method: string, params: unknown = []): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (v: unknown) => void, reject });
      this.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  /** Sends text as it is (one line or message). */
  sendRaw(text: string): void {
    this.write(text);
  }

  /** The next message received after `from` messages that `match` accepts. */
  async nextMessage(match: (m: unknown) => boolean, from = 0, timeoutMs = 20_000): Promise<unknown> {
    let found: unknown;
    await waitFor(() => {
      found = this.received.slice(from).find(match);
      return found !== undefined || this.closed;
    }, timeoutMs, 'an Electrum message');
    return found;
  }

  /** Waits for a notification of `method` whose params `match`, among those after the first `from`. */
  async nextNotification(method: string, match: (params: unknown[]) => boolean = () => true, from = 0, timeoutMs = 30_000): Promise<Notification> {
    let found: Notification | undefined;
    await waitFor(() => (found = this.notifications.slice(from).find((n) => n.method === method && match(n.params))) !== undefined, timeoutMs, `a ${method} notification`);
    return found!;
  }

  close(): void {
    this.end();
  }

  private onMessage(text: string): void {
    const message = JSON.parse(text) as unknown;
    this.received.push(message);
    for (const m of Array.isArray(message) ? message : [message]) {
      const { id, result, error, method, params } = m as { id?: number; result?: unknown; error?: { code: number; message: string }; method?: string; params?: unknown[] };
      if (method !== undefined && id === undefined) {
        this.notifications.push({ method, params: params ?? [], at: performance.now() });
        continue;
      }
      const pending = id === undefined ? undefined : this.pending.get(id);
      if (!pending) continue;
      this.pending.delete(id!);
      if (error) pending.reject(new ElectrumCallError(pending.method, error.code, error.message));
      else pending.resolve(result);
    }
  }

  private fail(error: Error): void {
    this.closedWith ??= error;
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }
}
