/**
 * docs/spec-deviations.md is the one list of what Outpoint answers beyond the spec. This keeps it complete: every
 * response field our schemas serialize that the spec never names, every field of a v3 object (or v3 endpoint) beyond
 * the spec's list for it, and every operation or route the spec does not have must be named on that page.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { noPrices, silentLogger, type AccountStore } from '../../src/core/index.js';
import { buildHttpApp } from '../../src/main/wiring/http-wiring.js';

type Schema = Record<string, unknown>;

const ROOT = new URL('../../', import.meta.url);
const SPEC = readFileSync(new URL('../shared/spec/interface-spec.md', ROOT), 'utf8');
const PAGE = readFileSync(new URL('docs/spec-deviations.md', ROOT), 'utf8');
const documented = (name: string): boolean => PAGE.includes(`\`${name}\``);
const inSpec = (word: string): boolean => new RegExp(`\\b${word.replace(/[.]/g, '\\.')}\\b`).test(SPEC);

/** Every exported schema of the v2 and v3 schema modules, by module and export name. */
async function schemaModules(): Promise<Map<string, Schema>> {
  const found = new Map<string, Schema>();
  for (const version of ['v2', 'v3']) {
    const dir = new URL(`src/http/${version}/schemas/`, ROOT);
    for (const file of readdirSync(dir)) {
      const mod = (await import(new URL(file, dir).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod)) if (value && typeof value === 'object') found.set(`${version}/${file}:${name}`, value as Schema);
    }
  }
  return found;
}

/** Property names anywhere under a schema's `response` (what clients receive). */
function responseFields(node: unknown, inResponse = false, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => responseFields(n, inResponse, into));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && inResponse && value && typeof value === 'object') for (const p of Object.keys(value)) into.add(p);
      responseFields(value, inResponse || key === 'response', into);
    }
  }
  return into;
}

/** Follows `data` / property names / `items` from a route schema's 200 answer. */
function dig(route: Schema, path: readonly string[]): Set<string> {
  let node = ((route['response'] as Schema)['200'] as Schema);
  for (const step of ['data', ...path]) node = (step === 'items' ? node['items'] : (node['properties'] as Schema)[step]) as Schema;
  return new Set(Object.keys((node['properties'] as Schema | undefined) ?? {}));
}

/** Field names of a `;`-separated spec field list ("value string (…); currency string (…)"). */
function specFields(list: string): Set<string> {
  return new Set(list.split(';').map((part) => /^\s*([A-Za-z_]+)/.exec(part)?.[1]).filter((f): f is string => f !== undefined));
}

/** The rows of the spec's markdown table that follows `heading`: first cell → second cell. */
function specTable(heading: string): Map<string, string> {
  const after = SPEC.slice(SPEC.indexOf(heading));
  const rows = new Map<string, string>();
  for (const line of after.split('\n').slice(1)) {
    if (line.startsWith('#')) break;
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length >= 4 && !/^-+$/.test(cells[1]!) && cells[1] !== 'Object' && cells[1] !== 'Path') rows.set(cells[1]!, cells[2]!);
  }
  return rows;
}

describe('docs/spec-deviations.md', () => {
  it('names every response field the spec does not', async () => {
    const missing = new Set<string>();
    for (const [where, schema] of await schemaModules()) {
      for (const field of responseFields(schema)) if (!inSpec(field) && !documented(field)) missing.add(`${field} (${where})`);
    }
    assert.deepEqual([...missing], [], 'fields served but neither in the spec nor on the page');
  });

  it('names every v3 object and endpoint field beyond the spec\'s list for it', async () => {
    const schemas = await schemaModules();
    const route = (name: string): Schema => [...schemas].find(([where]) => where.startsWith('v3/') && where.endsWith(`:${name}`))![1];
    const objects = specTable('### v3 nested objects');
    const ours: [string, Set<string>][] = [
      ['Price object', new Set(Object.keys((route('priceObject')['properties'] as Schema)))],
      ['Address transaction item', dig(route('transactionsSchema'), ['transactions', 'items'])],
      ['Unspent output item', dig(route('unspentOutputsSchema'), ['outputs', 'items'])],
      ['Transaction input', dig(route('transactionSchema'), ['inputs', 'items'])],
      ['Transaction output', dig(route('transactionSchema'), ['outputs', 'items'])],
      ['Block summary item', dig(route('latestBlocksSchema'), ['blocks', 'items'])],
      ['Mempool block item', dig(route('networkInfoSchema'), ['mempool', 'blocks', 'items'])],
    ];
    const endpoints = specTable('### v3 endpoints');
    const endpoint = (path: string): Set<string> => specFields([...endpoints].find(([p]) => p.startsWith(path))![1]);
    const extra: string[] = [];
    for (const [object, fields] of ours) {
      const spec = specFields(objects.get(object) ?? assert.fail(`the spec has no "${object}"`));
      for (const field of fields) if (!spec.has(field) && !documented(field)) extra.push(`${object}: ${field}`);
    }
    for (const [path, name] of [['/api/v3/latest_blocks_summary/', 'latestBlocksSchema'], ['/api/v3/network_info/', 'networkInfoSchema'],
      ['/api/v3/block/', 'blockSchema'], ['/api/v3/transaction/', 'transactionSchema'], ['/api/v3/price/', 'priceSchema']] as const) {
      for (const field of dig(route(name), [])) if (!endpoint(path).has(field) && !documented(field)) extra.push(`${path}: ${field}`);
    }
    assert.deepEqual(extra, [], 'fields beyond the spec\'s lists and not on the page');
  });

  it('names every operation and route the spec does not have', async () => {
    const app = await buildHttpApp({
      networks: new Map(), prices: noPrices, broadcaster: { broadcast: () => Promise.reject(new Error('unused')) }, publicUrl: 'https://outpoint.test',
      rateLimitPerSecond: 0, redisUrl: null, logger: silentLogger, shortLinks: { shortFor: () => Promise.reject(new Error('unused')), addressFor: () => Promise.resolve(null) },
      accounts: {} as AccountStore,
    });
    await app.ready();
    // Top-level lines of the route tree are whole paths (optional segments hang below them).
    const roots = [...app.printRoutes({ commonPrefix: false }).matchAll(/^[├└]── (\/\S*)/gm)].map((m) => m[1]!);
    await app.close();
    assert.ok(roots.length > 30, `routes found: ${roots.length}`);
    const specOperations = new Set([...SPEC.matchAll(/\/api\/v[23]\/([a-z_]+)/g)].map((m) => m[1]!));
    const missing: string[] = [];
    for (const root of roots) {
      const operation = /^\/api\/v[23]\/([a-z_.]+)/.exec(root)?.[1];
      if (operation !== undefined) {
        if (!specOperations.has(operation) && !PAGE.includes(operation)) missing.push(root);
      } else if (!PAGE.toLowerCase().includes(root.replace(/:([a-z_]+)/g, '{$1}').toLowerCase())) {
        missing.push(root);
      }
    }
    assert.deepEqual(missing, [], 'routes neither in the spec nor on the page');
  });
});
