/**
 * A JSON-RPC proxy in front of a regtest node that can hold `getblock` requests: the service under test keeps
 * talking to the real node (send_tx, mempool, getblockcount pass), while its initial sync stops at a chosen
 * point and goes on when the test says. Requests whose client gave up (RPC timeout) are dropped, not counted.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Held {
  readonly forward: () => void;
  readonly res: ServerResponse;
}

export class RpcHoldProxy {
  /** getblock requests still allowed through; Infinity once released. */
  private allowance: number;
  private readonly held: Held[] = [];
  private readonly server = createServer((req, res) => this.handle(req, res));
  /** The proxy's RPC URL, with the node's credentials. */
  url = '';

  private constructor(private readonly target: URL, allowance: number) {
    this.allowance = allowance;
  }

  /** `allow`: getblock requests answered before the first is held. */
  static async start(nodeRpcUrl: string, allow: number): Promise<RpcHoldProxy> {
    const proxy = new RpcHoldProxy(new URL(nodeRpcUrl), allow);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    const url = new URL(nodeRpcUrl);
    url.host = `127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
    proxy.url = url.toString();
    return proxy;
  }

  /** Lets `n` more getblock requests through, held ones first. */
  allow(n: number): void {
    this.allowance += n;
    this.drain();
  }

  /** Everything passes from now on. */
  release(): void {
    this.allow(Infinity);
  }

  /** getblock requests waiting (whose clients are still there). */
  get waiting(): number {
    return this.held.filter((h) => !h.res.destroyed).length;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const forward = (): void => this.forward(req, body, res);
      if (!isGetBlock(body)) return forward();
      this.held.push({ forward, res });
      this.drain();
    });
  }

  private drain(): void {
    while (this.allowance > 0 && this.held.length > 0) {
      const next = this.held.shift()!;
      if (next.res.destroyed) continue;
      this.allowance--;
      next.forward();
    }
  }

  private forward(req: IncomingMessage, body: Buffer, res: ServerResponse): void {
    const upstream = request(
      { host: this.target.hostname, port: this.target.port, path: req.url, method: req.method, headers: { ...req.headers, host: this.target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  }
}

function isGetBlock(body: Buffer): boolean {
  try {
    const parsed = JSON.parse(body.toString()) as { method?: string } | { method?: string }[];
    return (Array.isArray(parsed) ? parsed : [parsed]).some((call) => call.method === 'getblock');
  } catch {
    return false;
  }
}
