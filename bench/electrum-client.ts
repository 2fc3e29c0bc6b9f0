/**
 * A minimal Electrum protocol client for the benches that measure an Electrum server (Fulcrum) on our chain:
 * JSON-RPC 2.0 over plain TCP, one JSON object per line, answers matched to requests by id (so requests may be
 * pipelined), and the scripthash Electrum keys addresses by.
 */
import { createHash } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/** Electrum's key of an output script: sha256 of the script, byte-reversed, in hex. */
export function electrumScripthash(script: Uint8Array): string {
  return Buffer.from(createHash('sha256').update(script).digest()).reverse().toString('hex');
}

export class ElectrumError extends Error {
  constructor(readonly method: string, readonly error: unknown) {
    super(`${method}: ${JSON.stringify(error)}`);
  }
}

interface Pending {
  readonly method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

export class ElectrumClient {
  private nextId = 1;
  private buffered = '';
  private readonly pending = new Map<number, Pending>();
  private closed: Error | null = null;

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.onData(chunk));
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('connection closed')));
  }

  static connect(host: string, port: number, timeoutMs = 5000): Promise<ElectrumClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port });
      const timer = setTimeout(() => socket.destroy(new Error(`connect to ${host}:${port} timed out`)), timeoutMs);
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new ElectrumClient(socket));
      });
    });
  }

  request<T>(method: string, params: readonly unknown[] = []): Promise<T> {
    if (this.closed) return Promise.reject(this.closed);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (result: unknown) => void, reject });
      this.socket.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  isClosed(): boolean {
    return this.closed !== null;
  }

  private onData(chunk: string): void {
    const lines = (this.buffered + chunk).split('\n');
    this.buffered = lines.pop()!; // the part after the last newline: the start of a message still arriving
    for (const line of lines) if (line.trim() !== '') this.onMessage(line);
  }

  private onMessage(line: string): void {
    const message = JSON.parse(line) as { id?: number | null; result?: unknown; error?: unknown };
    // Notifications (subscriptions) carry no id; this client does not subscribe for them, so they are dropped.
    if (typeof message.id !== 'number') return;
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    if (message.error !== undefined && message.error !== null) pending.reject(new ElectrumError(pending.method, message.error));
    else pending.resolve(message.result);
  }

  private fail(error: Error): void {
    this.closed ??= error;
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }
}
