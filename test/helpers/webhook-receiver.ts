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

  async listen(port = 0): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.calls.push({ headers: req.headers, body, json: JSON.parse(body) });
        res.statusCode = this.statuses.shift() ?? 200;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return `http://127.0.0.1:${this.port}/hook`;
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
