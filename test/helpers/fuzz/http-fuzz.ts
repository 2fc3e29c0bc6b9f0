/**
 * HTTP fuzz cases: a corpus of valid requests to every kind of route (v2, v3 with an API key, the explorer's pages
 * and CSV export, the dashboard's forms with a valid CSRF pair, ops endpoints, assets, CORS preflight), each
 * mutated in its method, path, query, headers, body or raw bytes. Wallet routes (explorer and v3) and the catch-up
 * feed also get texts of their own each time: descriptors, gaps, channels and cursors (entry-texts.ts). The answer to a client's fault may be any 4xx, a
 * closed connection or nothing yet; never a 5xx.
 */
import { feedQuery, gapQuery, walletHookBody, walletText, type EntryKnown } from './entry-texts.js';
import type { FuzzRandom } from './fuzz-random.js';

/** What the corpus fills in: values that exist on the fuzzed process, so mutations start from answers that work. */
export interface FuzzKnown extends EntryKnown {
  readonly network: string;
  readonly address: string;
  readonly txid: string;
  readonly blockHash: string;
  readonly height: number;
  readonly rawTx: string;
  readonly apiKey: string;
  /** `name=value` of the pre-session CSRF cookie, and the token that goes with it. */
  readonly csrfCookie: string;
  readonly csrfToken: string;
  /** A path under /assets/ that the pages link to. */
  readonly asset: string;
}

export interface HttpRequest {
  method: string;
  target: string;
  headers: [string, string][];
  body: Buffer;
}

const FORM = 'application/x-www-form-urlencoded';
/** A 2-of-2 multisig wallet (issue 50) as a v3 and explorer path segment: mutations reach the descriptor parser. */
const MULTISIG = encodeURIComponent('wsh(sortedmulti(2,[4ba43603/48h/1h/0h/2h]tpubDDwf2gdFxFahr9RUtDQCuZmsx34CfdZ7RALAirwC2FGeLBzW1TDiEpqFeRdxLdZD7rfsbZHYwSaT6CLM3TAcYRw6xfRv4U6KCQt4Zuhvjkz/<0;1>/*,' +
  '[8dfc9b34/48h/1h/0h/2h]tpubDEXiq2SVhhqALktxfVFgj3C9M3T2G7xL11iezYg2LJAf245YkNyqp2K9TrvHABDCp2232k34UegU4aKEtUZNigit8EEqoLNe2JKMzMiLwYq/<0;1>/*))');

function corpus(k: FuzzKnown, random: FuzzRandom): HttpRequest[] {
  const net = k.network;
  const slug = net.toLowerCase();
  const get = (target: string, headers: [string, string][] = []): HttpRequest => ({ method: 'GET', target, headers, body: Buffer.alloc(0) });
  const post = (target: string, type: string, body: string, headers: [string, string][] = []): HttpRequest => ({
    method: 'POST', target, headers: [['Content-Type', type], ...headers], body: Buffer.from(body),
  });
  const key: [string, string][] = [['API-KEY', k.apiKey]];
  const csrf: [string, string][] = [['Cookie', k.csrfCookie]];
  return [
    get(`/api/v2/get_info/${net}`), get(`/api/v2/get_info/${net}?callback=cb`), get(`/api/v2/get_address_balance/${net}/${k.address}`),
    get(`/api/v2/get_address_received/${net}/${k.address}`), get(`/api/v2/get_address_spent/${net}/${k.address}`),
    get(`/api/v2/get_tx_unspent/${net}/${k.address}`), get(`/api/v2/get_tx_received/${net}/${k.address}/${k.txid}`),
    get(`/api/v2/get_tx/${net}/${k.txid}`), get(`/api/v2/get_tx_outputs/${net}/${k.txid}/0`), get(`/api/v2/get_tx_inputs/${net}/${k.txid}/0`),
    get(`/api/v2/is_tx_confirmed/${net}/${k.txid}`), get(`/api/v2/get_confidence/${net}/${k.txid}`), get(`/api/v2/get_block/${net}/${k.blockHash}`),
    get(`/api/v2/get_blockhash/${net}/${k.height}`), get(`/api/v2/is_address_valid/${net}/${k.address}`), get(`/api/v2/address/${net}/${k.address}`),
    get('/api/v2/get_price/LTC/USD'), get('/api/v2/openapi.json'),
    post(`/api/v2/send_tx/${net}`, 'application/json', JSON.stringify({ tx_hex: k.rawTx })), post(`/api/v2/send_tx/${net}`, FORM, `tx_hex=${k.rawTx}`),
    { method: 'OPTIONS', target: `/api/v2/get_info/${net}`, headers: [['Origin', 'https://example.com'], ['Access-Control-Request-Method', 'GET']], body: Buffer.alloc(0) },
    get(`/api/v3/balance/${net}/${k.address}`, key), get(`/api/v3/address_summary/${net}/${k.address}`, key),
    get(`/api/v3/transactions/${net}/${k.address}`, key), get(`/api/v3/unspent_outputs/${net}/${k.address}/0`, key),
    get(`/api/v3/transaction/${net}/${k.txid}`, key), get(`/api/v3/block/${net}/${k.height}`, key), get(`/api/v3/block/${net}/${k.blockHash}`, key),
    get(`/api/v3/network_info/${net}`, key), get(`/api/v3/latest_blocks_summary/${net}`, key), get('/api/v3/account_info', key),
    get(`/api/v3/is_valid_address/${net}/${k.address}`, key),
    get(`/api/v3/xpub/${net}/${MULTISIG}?gap=5`, key), get(`/api/v3/xpub/${net}/${MULTISIG}/transactions/1`, key), get(`/${slug}/xpub/${MULTISIG}`),
    get('/'), get(`/${slug}`), get(`/${slug}/block/${k.blockHash}`), get(`/${slug}/block/${k.height}`), get(`/${slug}/tx/${k.txid}`),
    get(`/${slug}/address/${k.address}`), get(`/${slug}/address/${k.address}?page=2`), get(`/${slug}/mempool`),
    get(`/${slug}/address/${k.address}/history.csv`, [['Accept-Encoding', 'br, gzip']]), get(`/${slug}/address/${k.address}/history.csv`),
    get(`/search?q=${k.address}`), get(`/search?q=${k.height}`), get(`/${net}/tx/${k.txid}`), get(`/s/${net}/abcdef`),
    get(k.asset, [['Accept-Encoding', 'br']]), get('/favicon.ico'),
    get('/health'), get('/ready'), get(`/ready/${net}`), get('/metrics'),
    get('/dashboard/sign-in'), get('/dashboard/sign-up'), get('/dashboard/forgot'), get('/dashboard'),
    post('/dashboard/sign-in', FORM, `csrf=${k.csrfToken}&email=fuzz%40example.com&password=not+the+password&next=%2Fdashboard`, csrf),
    post('/dashboard/forgot', FORM, `csrf=${k.csrfToken}&email=fuzz%40example.com`, csrf),
    post('/dashboard/sign-in/code', FORM, `csrf=${k.csrfToken}&code=123456`, csrf),
    post('/theme', FORM, `theme=dark&back=%2F${slug}`),
    get(`/${slug}/xpub/${encodeURIComponent(walletText(random, k))}${gapQuery(random)}`),
    get(`/${slug}/xpub/${encodeURIComponent(walletText(random, k))}${gapQuery(random)}${random.chance(0.5) ? '&part=summary' : '&tx_page=2'}`),
    get(`/api/v3/xpub/${net}/${encodeURIComponent(walletText(random, k))}${gapQuery(random)}`, key),
    get(`/api/v3/xpub/${net}/${encodeURIComponent(walletText(random, k))}/${random.pick(['transactions/1', 'unspent_outputs/2', 'addresses', 'transactions/0'])}${gapQuery(random)}`, key),
    get(`/api/v2/events/${net}?${feedQuery(random, k)}`), get(`/api/v2/events/${net}?${feedQuery(random, k)}&callback=cb`),
    post('/api/v3/webhooks', 'application/json', walletHookBody(random, k), key),
  ];
}

const METHODS = ['POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'PROPFIND', 'get', 'G\u0000T', 'X'.repeat(200), ''];
const HEADER_NAMES = ['Host', 'Content-Type', 'Content-Length', 'Transfer-Encoding', 'Accept-Encoding', 'Cookie', 'Origin', 'X-Forwarded-For',
  'API-KEY', 'Authorization', 'Connection', 'Upgrade', 'Expect', 'Range', 'If-None-Match', 'Sec-Fetch-Site', 'Accept', 'Referer', 'X-Custom'];
const HEADER_VALUES = ['', '[::1', 'x:99999', 'chunked', 'gzip;q=0, br;q=abc', 'application/json; charset=latin1', 'multipart/form-data; boundary=',
  'text/plain', 'outpoint_csrf=', 'outpoint_session=%E0%A4%A', 'null', 'http://[::1', '999999999999', '-1', '100-continue', 'bytes=5-1', 'upgrade'];

/** A request of the corpus with up to three structured edits, sometimes byte edits of the whole; as bytes to send. */
export function httpCase(random: FuzzRandom, known: FuzzKnown): Buffer {
  const request = structuredClone(random.pick(corpus(known, random)));
  request.body = Buffer.from(request.body);
  let lengthSet = false;
  for (let n = random.chance(0.1) ? 0 : 1 + random.int(3); n > 0; n--) lengthSet = mutate(random, request) || lengthSet;
  if (!lengthSet && (request.body.length > 0 || random.chance(0.1))) request.headers.push(['Content-Length', String(request.body.length)]);
  if (random.chance(0.85)) request.headers.push(['Connection', 'close']);
  const bytes = serialize(request);
  return random.chance(0.15) ? random.mutateBytes(bytes) : bytes;
}

/** One structured edit; true when it set Content-Length itself. */
function mutate(random: FuzzRandom, request: HttpRequest): boolean {
  switch (random.int(9)) {
    case 0:
      request.method = random.pick(METHODS);
      return false;
    case 1:
      request.target = random.mutateText(request.target);
      return false;
    case 2: {
      const params = Array.from({ length: 1 + random.int(4) }, () => `${random.chance(0.5) ? random.hostile() : random.pick(['callback', 'page', 'q', 'next', 'a[]'])}=${random.hostile()}`);
      request.target += (request.target.includes('?') ? '&' : '?') + params.join('&');
      return false;
    }
    case 3:
      request.headers.push([random.pick(HEADER_NAMES), random.chance(0.5) ? random.pick(HEADER_VALUES) : random.hostile()]);
      return false;
    case 4:
      if (request.headers.length > 0) {
        const header = random.pick(request.headers);
        header[1] = random.mutateText(header[1]);
      }
      return false;
    case 5:
      request.body = random.chance(0.5) ? random.mutateBytes(request.body.length > 0 ? request.body : Buffer.from('{"tx_hex":"00"}')) : random.bytes(random.int(2048));
      return false;
    case 6:
      // Length that disagrees with the body: shorter, longer (the server waits for bytes that never come), malformed, twice.
      request.headers.push(['Content-Length', random.pick([String(request.body.length + 1 + random.int(100)), String(Math.max(0, request.body.length - 3)), 'abc', '-5', '1e3', ''])]);
      if (random.chance(0.3)) request.headers.push(['Content-Length', '0']);
      return true;
    case 7:
      request.headers.push(['Transfer-Encoding', 'chunked']);
      request.body = Buffer.concat([Buffer.from(random.pick(['5\r\nhello\r\n0\r\n\r\n', 'zz\r\n', 'ffffffffffffffff\r\nx', '3\r\nabc\r\n', '0\r\n\r\n'])), random.bytes(random.int(16))]);
      return true;
    default:
      request.headers = Array.from({ length: random.pick([0, 120]) }, (_, i) => [`X-Many-${i}`, 'v'] as [string, string]).concat(request.headers.filter(() => random.chance(0.7)));
      return false;
  }
}

function serialize(request: HttpRequest): Buffer {
  const headers = [['Host', '127.0.0.1'] as [string, string], ...request.headers];
  const head = `${request.method} ${request.target} HTTP/1.1\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'utf8'), request.body]);
}
