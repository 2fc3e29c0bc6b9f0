/** One GET to an exchange's public REST API: status, body and JSON checked here so adapters only read fields. */
import { ExchangeError } from './exchange-error.js';

/** Bodies beyond this are not tickers; reading them would only waste memory. */
const MAX_BODY_CHARS = 2_000_000;

export type JsonParser = (text: string) => unknown;

export async function getJson(url: string, signal: AbortSignal, parse: JsonParser = JSON.parse): Promise<unknown> {
  // Some exchanges (Coinbase) refuse requests without a User-Agent.
  const response = await fetch(url, { signal, headers: { accept: 'application/json', 'user-agent': 'outpoint-market/1' } });
  const text = await response.text();
  if (!response.ok) {
    const rateLimited = response.status === 429 || response.status === 418;
    throw new ExchangeError(`HTTP ${response.status} from ${redact(url)}: ${snippet(text)}`, rateLimited, retryAfterMs(response.headers.get('retry-after')));
  }
  if (text.length > MAX_BODY_CHARS) throw new ExchangeError(`response from ${redact(url)} is too large (${text.length} characters)`);
  try {
    return parse(text);
  } catch {
    throw new ExchangeError(`malformed JSON from ${redact(url)}: ${snippet(text)}`);
  }
}

/** Retry-After as seconds or an HTTP date. */
function retryAfterMs(header: string | null): number | null {
  if (header === null) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** Enough of a body to tell an error page from an error object, on one log line. */
export function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

/** Query strings carry no secrets here, but keep log lines short. */
function redact(url: string): string {
  return url.split('?')[0]!;
}
