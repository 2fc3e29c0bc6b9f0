/**
 * The README's table of configuration keys, generated from the key table (config-schema.ts): one row per key (the
 * exchanges' `<id>_url` keys share one), in the table's order. `npm run docs:config` writes it between the README's
 * markers; config-docs.test.ts fails when the README and the code disagree.
 */
import { NETWORK_KEYS, SECTION_KEYS, TOP_LEVEL_KEYS, type KeySpec } from './config-schema.js';

export const TABLE_START = '<!-- config-keys: generated from src/config/config-schema.ts by `npm run docs:config` -->';
export const TABLE_END = '<!-- config-keys: end -->';

/** How the README shows a key's default. */
export function defaultText(spec: KeySpec): string {
  const d = spec.default;
  if (spec.required) return 'required';
  if (d === null) return 'none';
  if (typeof d === 'object' && 'derived' in d) return d.derived;
  if (Array.isArray(d)) return d.length === 0 ? 'none' : d.map((v) => `\`${v}\``).join(', ');
  return `\`${String(d)}\``;
}

function rows(): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  const add = (name: string, spec: KeySpec): void => {
    if (seen.has(name)) return;
    seen.add(name);
    out.push([`\`${name}\``, defaultText(spec), spec.doc]);
  };
  for (const [key, spec] of Object.entries(TOP_LEVEL_KEYS)) add(key, spec);
  for (const [section, keys] of Object.entries(SECTION_KEYS)) {
    for (const [key, spec] of Object.entries(keys)) add(`[${section}] ${spec.row ?? key}`, spec);
  }
  for (const [key, spec] of Object.entries(NETWORK_KEYS)) add(`[networks.X] ${key}`, spec);
  return out;
}

/** The Markdown table, markers included. */
export function configKeyTable(): string {
  const lines = ['| key | default | meaning |', '|---|---|---|', ...rows().map((r) => `| ${r.join(' | ')} |`)];
  return [TABLE_START, ...lines, TABLE_END].join('\n');
}

/** `readme` with its table replaced by the generated one (the markers must be there). */
export function withConfigKeyTable(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README has no config key table between "${TABLE_START}" and "${TABLE_END}"`);
  return readme.slice(0, start) + configKeyTable() + readme.slice(end + TABLE_END.length);
}
