/**
 * JSON.parse that keeps every non-integer number as its literal text.
 *
 * Nodes print amounts as JSON numbers with exactly 8 decimals ("0.00012345"). Parsing them as
 * doubles and multiplying back is exact only below 2^53 / 1e8 coins, and Node 20's reviver has
 * no access to the source text, so we quote decimal number tokens before parsing instead: the
 * caller then turns "0.00012345" into bigint base units with parseCoins. Integers stay numbers.
 */
export function parseJsonExactDecimals(text: string): unknown {
  return JSON.parse(quoteDecimalNumbers(text));
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isNumberChar(c: number): boolean {
  // digits, '-', '+', '.', 'e', 'E'
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
}

function quoteDecimalNumbers(text: string): string {
  let out = '';
  let copiedUpTo = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // skip the whole string literal, honouring escapes
      i++;
      while (i < n) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i += 2;
        else if (s === QUOTE) break;
        else i++;
      }
      i++;
      continue;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      let decimal = false;
      while (i < n && isNumberChar(text.charCodeAt(i))) {
        const d = text.charCodeAt(i);
        if (d === 0x2e || d === 0x65 || d === 0x45) decimal = true;
        i++;
      }
      if (decimal) {
        out += text.slice(copiedUpTo, start) + '"' + text.slice(start, i) + '"';
        copiedUpTo = i;
      }
      continue;
    }
    i++;
  }
  return copiedUpTo === 0 ? text : out + text.slice(copiedUpTo);
}
