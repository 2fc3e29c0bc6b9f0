import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { configKeyTable, TABLE_END, TABLE_START } from './config-docs.js';
import { loadConfig } from './config-loader.js';
import { NETWORK_KEYS, SECTION_KEYS, TOP_LEVEL_KEYS, type KeySpec } from './config-schema.js';

const README = new URL('../../README.md', import.meta.url);

test('the README\'s key table is the one generated from the key table (run `npm run docs:config` after changing a key)', () => {
  const readme = readFileSync(README, 'utf8');
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  assert.ok(start >= 0 && end > start, 'README has the table markers');
  assert.equal(readme.slice(start, end + TABLE_END.length), configKeyTable());
});

/** A literal default as an environment value (lists comma-separated). */
function envValue(spec: KeySpec): string | null {
  const d = spec.default;
  if (d === null || (typeof d === 'object' && !Array.isArray(d))) return null;
  return Array.isArray(d) ? d.join(',') : String(d);
}

test('every literal default in the table is the loader\'s: setting a key to its documented default changes nothing', () => {
  const network = { OUTPOINT_NETWORKS_LTC_RPC_URL: 'http://127.0.0.1:9332' };
  const base = loadConfig({ env: network });
  const keys: [string, KeySpec][] = [
    ...Object.entries(TOP_LEVEL_KEYS).map(([k, s]): [string, KeySpec] => [`OUTPOINT_${k.toUpperCase()}`, s]),
    ...Object.entries(SECTION_KEYS).flatMap(([section, specs]) =>
      Object.entries(specs).map(([k, s]): [string, KeySpec] => [`OUTPOINT_${section.toUpperCase()}_${k.toUpperCase()}`, s])),
    ...Object.entries(NETWORK_KEYS).map(([k, s]): [string, KeySpec] => [`OUTPOINT_NETWORKS_LTC_${k.toUpperCase()}`, s]),
  ];
  let checked = 0;
  for (const [name, spec] of keys) {
    const value = envValue(spec);
    // [metrics] host means something only with a port (alone it is refused).
    if (value === null || name === 'OUTPOINT_METRICS_HOST') continue;
    assert.deepEqual(loadConfig({ env: { ...network, [name]: value } }), base, `${name}=${value} is the default`);
    checked++;
  }
  assert.ok(checked >= 30, `checked ${checked} keys`);
});

test('every key says what it means, and a derived default says how it is derived', () => {
  for (const specs of [TOP_LEVEL_KEYS, ...Object.values(SECTION_KEYS), NETWORK_KEYS]) {
    for (const [key, spec] of Object.entries(specs)) {
      assert.ok(spec.doc.length > 10, `${key} has a meaning`);
      if (typeof spec.default === 'object' && spec.default !== null && 'derived' in spec.default) assert.ok(spec.default.derived.length > 0, key);
    }
  }
});
