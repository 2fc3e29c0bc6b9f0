/**
 * Seeded random v2 or v3 request URLs (paths below /api/v2 or /api/v3) mixing valid and malformed parts
 * (networks, addresses, txids, numbers, JSONP callbacks): the same seed gives the same URLs, so a failure names a
 * URL that reproduces. Also the stack-trace check every malformed request's answer gets.
 */
import assert from 'node:assert/strict';
import { seededRandom } from '../helpers/seeded-random.js';

/** An answer must never carry a stack trace: a source location, an error's name line, or escaped "at" frames. */
export function assertNoStackTrace(body: unknown, url: string): void {
  assert.doesNotMatch(JSON.stringify(body), /at .*\.ts:\d+|Error:|\\n\s+at /, `${url}: no stack traces`);
}

export interface KnownValues {
  readonly network: string;
  readonly addresses: readonly string[];
  readonly txids: readonly string[];
  readonly blockHash: string;
}

type Part = () => string;
type Template = (net: Part, address: Part, txid: Part, num: Part) => string;

const V2: Template[] = [
  (p, a) => `/get_address_balance/${p()}/${a()}`,
  (p, a, _t, n) => `/get_address_balance/${p()}/${a()}/${n()}`,
  (p, a) => `/get_address_received/${p()}/${a()}`,
  (p, a) => `/get_address_spent/${p()}/${a()}`,
  (p, a, t) => `/get_tx_unspent/${p()}/${a()}/${t()}`,
  (p, a, t) => `/get_tx_received/${p()}/${a()}/${t()}`,
  (p, a, t) => `/get_tx_spent/${p()}/${a()}/${t()}`,
  (p, a) => `/is_address_valid/${p()}/${a()}`,
  (p, a) => `/address/${p()}/${a()}`,
  (p, a) => `/short/${p()}/${a()}`,
  (p, _a, t) => `/get_confidence/${p()}/${t()}`,
  (p, _a, t, n) => `/get_tx_inputs/${p()}/${t()}/${n()}`,
  (p, _a, t, n) => `/get_tx_outputs/${p()}/${t()}/${n()}`,
  (p, _a, t) => `/get_tx/${p()}/${t()}`,
  (p, _a, t) => `/tx/${p()}/${t()}`,
  (p, _a, t) => `/is_tx_confirmed/${p()}/${t()}`,
  (p, _a, t, n) => `/is_tx_spent/${p()}/${t()}/${n()}`,
  (p, _a, _t, n) => `/get_blockhash/${p()}/${n()}`,
  (p, _a, t) => `/get_block/${p()}/${t()}`,
  (p, _a, _t, n) => `/get_block/${p()}/${n()}`,
  (p, _a, t) => `/block/${p()}/${t()}`,
  (p) => `/get_price/${p()}`,
  (p, a) => `/get_price/${p()}/${a()}`,
  (p) => `/get_info/${p()}`,
];

const V3: Template[] = [
  (p, a) => `/address_summary/${p()}/${a()}`,
  (p, a) => `/balance/${p()}/${a()}`,
  (p, a) => `/is_valid_address/${p()}/${a()}`,
  (p, a) => `/transaction_counts/${p()}/${a()}`,
  (p, a) => `/transactions/${p()}/${a()}`,
  (p, a, _t, n) => `/transactions/${p()}/${a()}/${n()}`,
  (p, a, _t, n) => `/unspent_outputs/${p()}/${a()}/${n()}`,
  (p, _a, t) => `/transaction/${p()}/${t()}`,
  (p, _a, t) => `/block/${p()}/${t()}`,
  (p, _a, _t, n) => `/block/${p()}/${n()}`,
  (p) => `/best_block_hash/${p()}`,
  (p) => `/latest_blocks_summary/${p()}`,
  (p) => `/network_info/${p()}`,
  (p, _a, _t, n) => `/price/${p()}/${n()}`,
];

export function malformedUrls(api: 'v2' | 'v3', seed: number, count: number, known: KnownValues): string[] {
  const templates = api === 'v2' ? V2 : V3;
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  // The served network three times over, so about half the requests get past the network check.
  const nets = [known.network, known.network, known.network, known.network.toLowerCase(), 'BTC', 'XYZ', '%00', `${known.network}%20`, '%C5%81TC', 'A'.repeat(3000), '..'];
  const first = known.addresses[0]!;
  const addresses = [...known.addresses, first.toUpperCase(), `${first}q`, `${first.slice(0, -1)}x`, 'bad', 'x'.repeat(300), '%2F', '%00', '%E2%82%BF', '0', '%20'];
  const txids = [...known.txids, known.blockHash, 'ab'.repeat(32), known.txids[0]!.toUpperCase(), 'zz', 'g'.repeat(64), 'a'.repeat(65), '%00', '-1'];
  const nums = ['0', '1', '2', '-1', '1e3', '99999999999999999999999', '0x10', '1.5', 'NaN', 'Infinity', '00001', '%20', '9007199254740993', '2147483648'];
  const callbacks = ['', '', '', '?callback=cb', '?callback=a.b_c$', '?callback=alert(1)', '?callback=%3Cscript%3E', `?callback=${'c'.repeat(300)}`, '?callback[]=x', '?callback=cb&callback=x'];
  return Array.from({ length: count }, () => pick(templates)(() => pick(nets), () => pick(addresses), () => pick(txids), () => pick(nums)) + pick(callbacks));
}
