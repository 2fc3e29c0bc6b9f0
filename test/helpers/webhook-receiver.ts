/** A webhook receiver on loopback for tests: records every call, answers 200 (or the statuses it is given first). */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from './wait-for.js';

export interface ReceivedCall {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The parsed body. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- webhook bodies are checked field by field
  readonly json: any;
}

export class WebhookReceiver {
  readonly calls: ReceivedCall[] = [];
  private server: Server | null = null;
  port = 0;

  constructor(private readonly statuses: number[] = []) {}

  /** Listens on loopback (`port` 0: a free one); resolves the port. */
  async listen(port = 0): Promise<number> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown = null;
        try {
          json = JSON.parse(body);
        } catch {
          // not JSON: the test sees `body`
        }
        this.calls.push({ headers: req.headers, body, json });
        res.statusCode = this.statuses.shift() ?? 200;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  /** A URL of this receiver (after listen). */
  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async next(predicate: (call: ReceivedCall) => boolean, timeoutMs = 30_000, what = 'webhook call'): Promise<ReceivedCall> {
    let found: ReceivedCall | undefined;
    await waitFor(() => (found = this.calls.find(predicate)) !== undefined, timeoutMs, what);
    return found!;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
