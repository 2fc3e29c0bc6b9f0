/**
 * A browser without a browser, for tests against `outpoint serve`: plain HTTP/1.1 from a chosen loopback source
 * address (127.0.0.2, 127.0.0.3… are distinct clients to the server, as distinct machines would be), a cookie jar,
 * and forms posted with the CSRF token of the last page fetched. Redirects are not followed: tests read them.
 */
import { request } from 'node:http';

export interface Answer {
  readonly status: number;
  readonly location: string | null;
  readonly retryAfter: string | null;
  readonly body: string;
}

export class FormClient {
  private readonly cookies = new Map<string, string>();
  /** The CSRF token of the last page that had a form. */
  csrf = '';

  constructor(
    private readonly baseUrl: string,
    readonly localAddress = '127.0.0.1',
  ) {}

  async get(path: string): Promise<Answer> {
    const answer = await this.send('GET', path, null, {});
    const token = /name="csrf" value="([^"]+)"/.exec(answer.body)?.[1];
    if (token) this.csrf = token;
    return answer;
  }

  /** Posts the fields (and the current CSRF token) as a same-origin form. */
  post(path: string, fields: Record<string, string> = {}): Promise<Answer> {
    const body = new URLSearchParams({ csrf: this.csrf, ...fields }).toString();
    return this.send('POST', path, body, { 'content-type': 'application/x-www-form-urlencoded', origin: this.baseUrl });
  }

  /** A request with its own headers (no cookies), e.g. an API call with an API-KEY. */
  raw(path: string, headers: Record<string, string>): Promise<Answer> {
    return this.send('GET', path, null, headers, false);
  }

  private send(method: string, path: string, body: string | null, headers: Record<string, string>, withCookies = true): Promise<Answer> {
    const url = new URL(path, this.baseUrl);
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return new Promise((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname + url.search, method, localAddress: this.localAddress, agent: false,
          headers: { ...headers, ...(withCookies && cookie ? { cookie } : {}), ...(body !== null ? { 'content-length': Buffer.byteLength(body) } : {}) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            for (const line of res.headers['set-cookie'] ?? []) {
              const [pair, ...attributes] = line.split(';');
              const eq = pair!.indexOf('=');
              const name = pair!.slice(0, eq).trim();
              if (attributes.some((a) => /^\s*max-age=0$/i.test(a))) this.cookies.delete(name);
              else this.cookies.set(name, pair!.slice(eq + 1).trim());
            }
            const header = (name: string): string | null => {
              const value = res.headers[name];
              return typeof value === 'string' ? value : null;
            };
            resolve({ status: res.statusCode!, location: header('location'), retryAfter: header('retry-after'), body: Buffer.concat(chunks).toString('utf8') });
          });
        },
      );
      req.on('error', reject);
      req.end(body ?? undefined);
    });
  }
}
