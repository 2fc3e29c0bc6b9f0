/**
 * Fuzz inputs of the entries whose text the server interprets (issue 46): wallet texts (extended keys and output
 * descriptors, built from valid pieces and broken ones), gap values, catch-up feed channels and cursors. Each call
 * gives one; the HTTP corpus puts them into the explorer's and v3's wallet routes and the v2 feed.
 */
import type { FuzzRandom } from './fuzz-random.js';

export interface EntryKnown {
  readonly network: string;
  readonly address: string;
  /** A valid extended public key of the network (tpub). */
  readonly tpub: string;
  /** A valid descriptor of it with origin and checksum. */
  readonly descriptor: string;
}

const SCRIPTS = ['wpkh(KEY)', 'pkh(KEY)', 'sh(wpkh(KEY))', 'tr(KEY)', 'wsh(KEY)', 'sh(KEY)', 'multi(1,KEY,KEY)', 'tr(KEY,{pk(KEY)})', 'KEY', 'wpkh(wpkh(KEY))', 'wpkh('];
const ORIGINS = ['', '[d34db33f/84h/1h/0h]', '[d34db33f]', '[D34DB33F/84\'/1\'/0\']', '[xyz/1]', '[d34db33f/2147483648]', '[', ']', '[d34db33f/84h'];
const PATHS = ['/0/*', '/<0;1>/*', '/1/*', '/*', '', '/0/*h', "/0/*'", '/0h/*', '/<0;1;2>/*', '/<0;0>/*', '/<0;1>/<0;1>/*', '/2147483648/*', '/-1/*', '/0/0'];
const GAPS = ['', '0', '1', '20', '999', '1000', '1001', '-1', '1.5', '1e3', 'abc', '99999999999999999999', '%00', '0x10', ' 5'];
/** Keys that are not a tpub: other networks' and private forms, WIF, raw public keys, truncations. */
const OTHER_KEYS = [
  'xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V',
  'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
  'cMahea7zqjxrtgAbB7LSGbcQUr1uX1ojuat9jZodMN87JcbXMTcA', 'KwDiBf89QgGbjEhKnhXJuH7LrciVrZi3qYjgd9M7rFU73sVHnoWn',
  `02${'ab'.repeat(32)}`, 'ab'.repeat(32), '', 'tpub', '1'.repeat(111),
];

export function walletText(random: FuzzRandom, k: EntryKnown): string {
  if (random.chance(0.15)) return random.chance(0.5) ? k.descriptor : k.tpub;
  if (random.chance(0.15)) return random.mutateText(random.chance(0.5) ? k.descriptor : k.tpub);
  const key = random.chance(0.7) ? k.tpub : random.pick(OTHER_KEYS);
  // Up to hundreds of unhardened steps: long paths are derived too (in slices, on the derivation threads).
  const steps = random.chance(0.2) ? `/${Array(1 + random.int(300)).fill(String(random.int(3))).join('/')}` : '';
  const body = random.pick(SCRIPTS).replaceAll('KEY', `${random.pick(ORIGINS)}${key}${steps}${random.pick(PATHS)}`);
  const checksum = random.chance(0.3) ? `#${random.chance(0.5) ? 'qwertyui' : random.hostile()}` : '';
  return `${body}${checksum}`;
}

export function gapQuery(random: FuzzRandom): string {
  if (random.chance(0.2)) return '';
  const gaps = Array.from({ length: random.chance(0.1) ? 2 : 1 }, () => `gap=${random.chance(0.8) ? random.pick(GAPS) : random.hostile()}`);
  return `?${gaps.join('&')}`;
}

/** `channel=…&after=…[&limit=…]` for `/api/v2/events/{NETWORK}`. */
export function feedQuery(random: FuzzRandom, k: EntryKnown): string {
  const slug = k.network.toLowerCase();
  const channel = random.pick([
    `address_${slug}_${k.address}`, `address_${slug}_${k.address.toUpperCase()}`, `blockchain_update_${slug}`, `ticker_${slug}_usd`,
    `address_btc_${k.address}`, `address_${slug}_`, `address_${slug}_${random.hostile()}`, 'blockchain_update_', random.hostile(), 'x'.repeat(300),
    // Wallet channels (issue 50): a well-formed checksum, a bad one, none, another network's.
    `wallet_${slug}_qqqqqqqq`, `wallet_${slug}_QQQQQQQQ`, `wallet_${slug}_`, `wallet_${slug}_${random.hostile()}`, 'wallet_btc_qqqqqqqq',
  ]);
  const after = random.pick(['0', '1', '999999999999999', '-1', '1.5', '', 'abc', '9'.repeat(16), random.hostile()]);
  const limit = random.chance(0.4) ? `&limit=${random.pick(['1', '1000', '1001', '0', '-5', '99999', 'x'])}` : '';
  return `channel=${encodeURIComponent(channel)}&after=${encodeURIComponent(after)}${limit}`;
}

/** A `wallet` webhook registration (issue 50) with a fuzzed wallet, gap and confirmations, as JSON. */
export function walletHookBody(random: FuzzRandom, k: EntryKnown): string {
  const gap = random.pick<unknown>([5, 0, 1001, -1, 1.5, '20', null, random.hostile()]);
  const wallet = random.chance(0.8) ? walletText(random, k) : random.hostile();
  const body: Record<string, unknown> = { network: random.chance(0.9) ? k.network : random.hostile(), event: 'wallet', url: 'http://localhost/w' };
  body[random.pick(['descriptor', 'xpub', 'address'])] = wallet;
  if (random.chance(0.7)) body['gap'] = gap;
  if (random.chance(0.3)) body['confirmations'] = random.pick<unknown>([1, 6, 0, 101, 'x']);
  return JSON.stringify(body);
}
