/**
 * WIF private keys (Wallet Import Format: base58check of a network's `wifVersion` byte, the 32-byte key and, for a
 * compressed public key, 0x01), recognised so that a wallet route refuses one by name and a log line never carries
 * one. Every network's version counts, whatever network a request names: a key is a secret wherever it is pasted.
 */
import { decodeBase58Check, encodeBase58Check } from '../address/base58.js';
import { ALL_NETWORK_PARAMS } from '../networks.js';

const VERSIONS = new Set(ALL_NETWORK_PARAMS.map((p) => p.wifVersion));
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** 51 characters (uncompressed) or 52 (compressed). */
const LENGTHS = [51, 52] as const;

/** Whether a base58check payload is a WIF key: a known version, 32 key bytes, then nothing or the compression flag. */
export function isWifPayload(payload: Uint8Array): boolean {
  if (!VERSIONS.has(payload[0]!)) return false;
  return payload.length === 33 || (payload.length === 34 && payload[33] === 0x01);
}

export function isWif(text: string): boolean {
  if (text.length !== 51 && text.length !== 52) return false;
  const payload = decodeBase58Check(text);
  return payload !== null && isWifPayload(payload);
}

/**
 * The characters a WIF key can start with: its version and length fix its leading digit within a small range, found
 * from the smallest and largest payloads of each. Text is only checksummed at these characters.
 */
const FIRST_CHARS: ReadonlySet<string> = (() => {
  const firsts = new Set<string>();
  for (const version of VERSIONS) {
    for (const compressed of [false, true]) {
      const ends = [0x00, 0xff].map((fill) => {
        const payload = new Uint8Array(compressed ? 34 : 33).fill(fill);
        payload[0] = version;
        if (compressed) payload[33] = 0x01;
        return ALPHABET.indexOf(encodeBase58Check(payload)[0]!);
      });
      for (let i = Math.min(...ends); i <= Math.max(...ends); i++) firsts.add(ALPHABET[i]!);
    }
  }
  return firsts;
})();

/** Runs of base58 characters long enough to hold a WIF key (in a URL it may follow `%28` or `%5B`: no word boundaries). */
const RUN = /[1-9A-HJ-NP-Za-km-z]{51,}/g;

/** `text` with every WIF key in it replaced by `mask(key)`. Cheap on text without long base58 runs (one regex pass). */
export function replaceWifKeys(text: string, mask: (key: string) => string): string {
  return text.replace(RUN, (run) => {
    let out = '';
    let at = 0;
    for (let start = 0; start + LENGTHS[0] <= run.length; start++) {
      if (!FIRST_CHARS.has(run[start]!)) continue;
      const length = LENGTHS.find((n) => start + n <= run.length && isWif(run.slice(start, start + n)));
      if (length === undefined) continue;
      out += run.slice(at, start) + mask(run.slice(start, start + length));
      at = start + length;
      start = at - 1;
    }
    return out + run.slice(at);
  });
}
