/**
 * The parsers of the platform that throw on malformed text (`decodeURIComponent`, `new URL`, `JSON.parse`), for
 * text a client or a file controls: they answer "not parseable" instead of throwing, so an entry layer words a
 * client error and no exception escapes into an event handler, where it would end the process (issue 27).
 */

/** `decodeURIComponent`, or null for a malformed escape (`%E0%A4%A`, a lone `%`). */
export function decodeUriComponentOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** `new URL(text, base)`, or null when it does not parse (`http://[::1/x`, an empty scheme). */
export function parseUrlOrNull(text: string, base?: string): URL | null {
  try {
    return new URL(text, base);
  } catch {
    return null;
  }
}

/** `JSON.parse`, or undefined (which JSON itself can never produce) when the text is not JSON. */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
