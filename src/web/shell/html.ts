/**
 * Typed HTML templates with escaping by default. `html` escapes every interpolated value unless it is already
 * SafeHtml (made by `html` itself), so forgetting to escape is impossible: injecting markup takes an explicit
 * `trustedHtml(...)`, whose uses a test keeps to an allow-list (test/web/xss-gate.test.ts). Amounts (bigint) are
 * not accepted: they must go through a formatter that writes them exactly as the APIs do.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** What a template accepts: text (escaped), numbers, nested templates, lists of them; false/null/undefined render nothing. */
export type HtmlValue = SafeHtml | string | number | false | null | undefined | readonly HtmlValue[];

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const SPECIAL = /[&<>"']/g;
/** Without the g flag: `test` on a global regex would carry lastIndex over between calls. */
const HAS_SPECIAL = /[&<>"']/;

/** Escapes text for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return HAS_SPECIAL.test(text) ? text.replace(SPECIAL, (c) => ESCAPES[c]!) : text;
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (typeof value === 'string') return escapeHtml(value);
  if (typeof value === 'number') return String(value);
  let out = '';
  for (const item of value) out += render(item);
  return out;
}

export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Markup produced by our own code from validated data (an SVG path, a pre-rendered fragment). Never user text. */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

export const EMPTY_HTML = new SafeHtml('');

/** Joins fragments with a separator (itself a template, e.g. html`, `). */
export function joinHtml(items: readonly SafeHtml[], separator: SafeHtml = EMPTY_HTML): SafeHtml {
  return new SafeHtml(items.map((i) => i.value).join(separator.value));
}

/** A path built from segments, each percent-encoded: user text in a URL can never change its structure. */
export function pathOf(...segments: readonly (string | number)[]): string {
  return '/' + segments.map((s) => encodeURIComponent(String(s))).join('/');
}

/** A path with a query string; undefined/empty parameters are left out. */
export function withQuery(path: string, params: Readonly<Record<string, string | number | undefined | null>>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
