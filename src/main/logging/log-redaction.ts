import { replaceWifKeys } from '../../chains/wallet/wif.js';

/**
 * What keeps secrets out of log lines: RPC passwords and cookies, database and Redis passwords, API keys, private keys
 * (extended and WIF). Applied to every line by the logger, whatever code wrote it, so a new log call cannot leak one
 * by accident.
 */

/** Field names whose values are secrets wherever they appear (any nesting). */
const SECRET_KEY = /passw(or)?d|^pass$|_pass$|secret|token|cookie(?!_?(file|path))|authori[sz]ation|api[-_]?key|credential|private[-_]?key/i;
/** `scheme://user:password@` or `scheme://:password@`: the part between `//` and `@`. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@'"]*@/gi;
/** A whole v3 API key (opk_ + 43 base64url characters); its first 8 characters after opk_ are its public prefix. */
const API_KEY = /\bopk_([A-Za-z0-9_-]{8})[A-Za-z0-9_-]{35}\b/g;
/** Query parameters that carry secrets (a reset or invite link's token, a key) in a logged URL. */
const SECRET_PARAM = /([?&;](?:token|key|api_key|apikey|password|secret|code|session)=)[^&#\s"']+/gi;
/** Basic/Bearer credentials written out in a text (e.g. an echoed header). */
const AUTH_HEADER = /\b(Basic|Bearer)\s+[A-Za-z0-9+/=._-]{8,}/g;
/**
 * An extended private key (BIP32 serialisation: 111-112 base58 characters): always a secret. No word boundaries: in a
 * URL a key follows percent-encoding (`%5Dxpub…` after an origin's `]`).
 */
const EXTENDED_PRIVATE_KEY = /(xprv|yprv|zprv|tprv|uprv|vprv|Ltpv|Mtpv|ttpv|dgpv)[1-9A-HJ-NP-Za-km-z]{100,112}/g;
/**
 * An extended public key: not a secret, but it names a wallet's every address; masked unless `[log] wallet_keys`
 * says to keep them (docs/wallets.md: what a wallet asked is not kept).
 */
const EXTENDED_PUBLIC_KEY = /(xpub|ypub|zpub|tpub|upub|vpub|Ltub|Mtub|ttub|dgub)[1-9A-HJ-NP-Za-km-z]{100,112}/g;

export const REDACTED = '[redacted]';

export interface RedactOptions {
  /** Keep extended public keys as written (`[log] wallet_keys = true`); default false: masked. */
  readonly walletKeys?: boolean;
}

export function redactText(text: string, options: RedactOptions = {}): string {
  const masked = text
    .replace(URL_CREDENTIALS, '$1***@')
    .replace(API_KEY, 'opk_$1…')
    .replace(AUTH_HEADER, `$1 ${REDACTED}`)
    .replace(SECRET_PARAM, `$1${REDACTED}`)
    .replace(EXTENDED_PRIVATE_KEY, `$1${REDACTED}`);
  // WIF private keys (a single key's secret, wallet routes refuse them by name): whole, at every level.
  const noWif = replaceWifKeys(masked, () => `WIF${REDACTED}`);
  return options.walletKeys ? noWif : noWif.replace(EXTENDED_PUBLIC_KEY, `$1${REDACTED}`);
}

/**
 * A copy safe to log: texts and objects under secret-named fields replaced (numbers and booleans are kept: a count
 * of tokens is no token), other texts masked, bigints as decimal text, errors as their message.
 */
export function redactValue(value: unknown, depth = 0, options: RedactOptions = {}): unknown {
  if (typeof value === 'string') return redactText(value, options);
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return value;
  if (depth > 5) return '[nested]';
  if (value instanceof Error) return redactText(value.message, options);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1, options));
  if (value instanceof Uint8Array) return `<${value.byteLength} bytes>`;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) && (typeof v === 'string' || (typeof v === 'object' && v !== null)) ? REDACTED : redactValue(v, depth + 1, options);
  }
  return out;
}
