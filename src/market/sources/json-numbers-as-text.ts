/**
 * JSON.parse that returns every number as its literal text ("0.0000025", "2.5e-6", "65000").
 * Bitfinex sends prices as JSON numbers; Node 20's reviver cannot see the source text, so number tokens
 * outside strings are quoted before parsing and the price never exists as a float.
 */
export function parseJsonNumbersAsText(text: string): unknown {
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      // Skip the string literal, honouring escapes.
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      const start = i;
      while (i < text.length && /[-+.eE0-9]/.test(text[i]!)) i++;
      out += `${text.slice(copied, start)}"${text.slice(start, i)}"`;
      copied = i;
      continue;
    }
    i++;
  }
  // Malformed tokens ("1.2.3") become strings the price check refuses; malformed JSON still fails here.
  return JSON.parse(copied === 0 ? text : out + text.slice(copied));
}
