/**
 * The output descriptor checksum of BIP380 ("Checksum" section): a BCH code over the descriptor's characters, 8
 * characters after a `#`. Written from the BIP's reference Python; the 40-bit state is a bigint (JavaScript's
 * bitwise operators stop at 32 bits).
 */

const INPUT_CHARSET = '0123456789()[],\'/*abcdefgh@:$%{}IJKLMNOPQRSTUVWXYZ&+-.;<=>?!^_|~ijklmnopqrstuvwxyzABCDEFGH`#"\\ ';
const CHECKSUM_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATOR = [0xf5dee51989n, 0xa9fdca3312n, 0x1bab10e32dn, 0x3706b1677an, 0x644d626ffdn];
const LOW_35_BITS = 0x7ffffffffn;

function polymod(symbols: readonly number[]): bigint {
  let chk = 1n;
  for (const value of symbols) {
    const top = chk >> 35n;
    chk = ((chk & LOW_35_BITS) << 5n) ^ BigInt(value);
    for (let i = 0; i < 5; i++) if ((top >> BigInt(i)) & 1n) chk ^= GENERATOR[i]!;
  }
  return chk;
}

/** The symbols the checksum is computed over; null when a character is outside the descriptor character set. */
function expand(text: string): number[] | null {
  const symbols: number[] = [];
  let groups: number[] = [];
  for (const c of text) {
    const v = INPUT_CHARSET.indexOf(c);
    if (v < 0) return null;
    symbols.push(v & 31);
    groups.push(v >> 5);
    if (groups.length === 3) {
      symbols.push(groups[0]! * 9 + groups[1]! * 3 + groups[2]!);
      groups = [];
    }
  }
  if (groups.length === 1) symbols.push(groups[0]!);
  else if (groups.length === 2) symbols.push(groups[0]! * 3 + groups[1]!);
  return symbols;
}

/** The 8-character checksum of a descriptor (without `#`), or null when it has a character descriptors never use. */
export function descriptorChecksum(descriptor: string): string | null {
  const symbols = expand(descriptor);
  if (symbols === null) return null;
  const checksum = polymod([...symbols, 0, 0, 0, 0, 0, 0, 0, 0]) ^ 1n;
  let out = '';
  for (let i = 0; i < 8; i++) out += CHECKSUM_CHARSET[Number((checksum >> BigInt(5 * (7 - i))) & 31n)];
  return out;
}

export type ChecksumSplit =
  | { readonly ok: true; readonly body: string; readonly checksum: string | null }
  | { readonly ok: false; readonly reason: string };

/**
 * Splits `DESC#CHECKSUM` and verifies the checksum when one is given (BIP380: it is optional on input). The reasons
 * are meant for the caller: which part is wrong, and the checksum the descriptor actually has.
 */
export function verifyChecksum(text: string): ChecksumSplit {
  const hash = text.indexOf('#');
  const body = hash < 0 ? text : text.slice(0, hash);
  const computed = descriptorChecksum(body);
  if (computed === null) return { ok: false, reason: 'the descriptor has a character descriptors never contain' };
  if (hash < 0) return { ok: true, body, checksum: null };
  const given = text.slice(hash + 1);
  if (given.length !== 8) return { ok: false, reason: `a descriptor checksum is 8 characters after '#', got ${given.length}` };
  if (given !== computed) return { ok: false, reason: `wrong descriptor checksum: '${given}' given, the descriptor's is '${computed}'` };
  return { ok: true, body, checksum: given };
}
