/**
 * The shape of descriptor text (BIP380 "script expressions"): `name(arguments)` nested, arguments separated by
 * commas. Only the shape is read here, with no meaning: which functions nest where, and what a KEY is, is the
 * callers' (wallet-descriptor.ts, multisig-descriptor.ts, key-expression.ts).
 */
import { invalidWallet } from './extended-key.js';

export interface Call {
  /** The function's name as written (`wsh`, `sortedmulti`). */
  readonly name: string;
  /** The text between its parentheses. */
  readonly inner: string;
}

/**
 * `text` as one call `name(inner)` whose closing parenthesis is the last character; null when it is not one (no
 * parenthesis at all: a plain key). Unbalanced parentheses are refused with where they are.
 */
export function readCall(text: string): Call | null {
  const open = text.indexOf('(');
  if (open < 0) return null;
  const name = text.slice(0, open);
  if (!/^[a-z_]{1,20}$/.test(name)) throw invalidWallet(name === '' ? 'not a descriptor: a script function name comes before ' + "'('" : `not a descriptor: '${name.slice(0, 20)}' is no script function name`);
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) {
      if (i !== text.length - 1) throw invalidWallet(`unexpected '${text.slice(i + 1, i + 21)}' after ${name}(…)`);
      return { name, inner: text.slice(open + 1, i) };
    }
  }
  throw invalidWallet(`${name}( has no closing ')'`);
}

/** The comma-separated arguments of a call, split only at the top level (not inside nested calls or braces). */
export function splitArguments(inner: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '(' || c === '{') depth++;
    else if (c === ')' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  out.push(inner.slice(start));
  return out;
}
