/**
 * Reading one configuration value: its type, range and allowed values checked, errors naming the key's path, and its
 * default taken from the key's table entry (config-schema.ts). A derived default is computed by the caller and passed
 * in; a literal one never is, so the table's default is the loader's.
 */
import { ConfigError, parseUrlOrNull } from '../core/index.js';
import type { KeySpec } from './config-schema.js';

export type Raw = Record<string, unknown>;

/** The default to use: the table's literal, or the value the caller computed for a derived one. */
function defaultOf(spec: KeySpec, computed: unknown, path: string): unknown {
  const d = spec.default;
  const isDerived = typeof d === 'object' && d !== null && 'derived' in d;
  // Programming errors (the table and the loader disagree), not configuration errors.
  if (isDerived && computed === undefined) throw new Error(`config table: ${path} has a derived default the loader did not compute`);
  if (!isDerived && computed !== undefined) throw new Error(`config table: ${path} has its default in the table; the loader passed another`);
  return isDerived ? computed : d;
}

function fallback<T>(spec: KeySpec, computed: T | undefined, path: string, is: (v: unknown) => v is T): T {
  const d = defaultOf(spec, computed, path);
  if (!is(d)) throw new Error(`config table: ${path} has no usable default (${JSON.stringify(d)})`);
  return d;
}

/** An optional read returns null for an absent key: right only when the table's default is none or derived. */
function noLiteralDefault(spec: KeySpec, path: string): void {
  if (spec.default !== null && typeof spec.default !== 'object') throw new Error(`config table: ${path} has a default; read it with its type's reader`);
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number';
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
const isStrings = (v: unknown): v is readonly string[] => Array.isArray(v);

/** A key whose absence means "none" (default null), or whose derived default is worked out by whoever reads the null. */
export function optionalStr(table: Raw, key: string, spec: KeySpec, path: string): string | null {
  noLiteralDefault(spec, path);
  const value = table[key];
  if (value === undefined || value === '') return null;
  return checkedStr(value, spec, path);
}

export function str(table: Raw, key: string, spec: KeySpec, path: string, computed?: string): string {
  const value = table[key];
  if (value === undefined) return fallback(spec, computed, path, isString);
  return checkedStr(value, spec, path);
}

function checkedStr(value: unknown, spec: KeySpec, path: string): string {
  if (typeof value !== 'string') throw new ConfigError(`${path} must be a string (${spec.doc})`);
  // Parsed too: a value the pattern admits but URL cannot read (`http://[::1`) would fail later, with less to say.
  if (spec.type === 'url' && (!/^[a-z][a-z0-9+.-]*:\/\/[^\s]+$/i.test(value) || parseUrlOrNull(value) === null)) throw new ConfigError(`${path} must be a URL, got "${value}"`);
  if (spec.type === 'chain' && !['main', 'test', 'regtest'].includes(value)) {
    throw new ConfigError(`${path} must be main, test or regtest, got "${value}"`);
  }
  if (spec.type === 'string' && spec.oneOf && !spec.oneOf.includes(value)) {
    throw new ConfigError(`${path} must be one of ${spec.oneOf.join(', ')}, got "${value}"`);
  }
  return value;
}

/** An integer key; `computed` only for a derived default. A key without a value and with default null: use optionalInt. */
export function int(table: Raw, key: string, spec: KeySpec, path: string, computed?: number): number {
  const value = table[key];
  if (value === undefined) return fallback(spec, computed, path, isNumber);
  const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new ConfigError(`${path} must be an integer, got ${JSON.stringify(value)}`);
  if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
    throw new ConfigError(`${path} must be between ${spec.min} and ${spec.max}, got ${n}`);
  }
  return n;
}

/** An integer key that may be absent (null): default null, or derived by whoever reads the null. */
export function optionalInt(table: Raw, key: string, spec: KeySpec, path: string): number | null {
  noLiteralDefault(spec, path);
  return table[key] === undefined ? null : int(table, key, spec, path);
}

export function bool(table: Raw, key: string, spec: KeySpec, path: string, computed?: boolean): boolean {
  const value = table[key];
  if (value === undefined) return fallback(spec, computed, path, isBoolean);
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|1)$/i.test(value.trim())) return true;
  if (typeof value === 'string' && /^(false|0)$/i.test(value.trim())) return false;
  throw new ConfigError(`${path} must be true or false (${spec.doc}), got ${JSON.stringify(value)}`);
}

/** A TOML array of strings, or (from the environment) one comma-separated string; members checked against oneOf. */
export function list(table: Raw, key: string, spec: KeySpec, path: string, computed?: readonly string[]): string[] {
  const value = table[key];
  if (value === undefined) return [...fallback(spec, computed, path, isStrings)];
  const items = typeof value === 'string' ? value.split(',').map((v) => v.trim()).filter((v) => v !== '') : value;
  if (!Array.isArray(items) || !items.every((v): v is string => typeof v === 'string')) {
    throw new ConfigError(`${path} must be a list of strings (${spec.doc})`);
  }
  for (const [i, item] of items.entries()) {
    if (spec.oneOf && !spec.oneOf.includes(item)) throw new ConfigError(`${path}: unknown "${item}" (use any of ${spec.oneOf.join(', ')})`);
    if (items.indexOf(item) !== i) throw new ConfigError(`${path} lists "${item}" twice`);
  }
  return items;
}

export function isTable(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** The readers of one table of keys (a section, a network), each naming its key's path and using its entry. */
export interface KeyReader {
  /** The key is set (in the file or the environment). */
  given(key: string): boolean;
  str(key: string, computed?: string): string;
  optionalStr(key: string): string | null;
  int(key: string, computed?: number): number;
  optionalInt(key: string): number | null;
  bool(key: string, computed?: boolean): boolean;
  list(key: string, computed?: readonly string[]): string[];
}

export function keyReader(specs: Readonly<Record<string, KeySpec>>, table: Raw, prefix: string): KeyReader {
  const spec = (key: string): KeySpec => {
    const found = specs[key];
    if (!found) throw new Error(`config table: no key ${prefix}${key}`);
    return found;
  };
  const at = (key: string): string => `${prefix}${key}`;
  return {
    given: (key) => spec(key) !== undefined && table[key] !== undefined,
    str: (key, computed) => str(table, key, spec(key), at(key), computed),
    optionalStr: (key) => optionalStr(table, key, spec(key), at(key)),
    int: (key, computed) => int(table, key, spec(key), at(key), computed),
    optionalInt: (key) => optionalInt(table, key, spec(key), at(key)),
    bool: (key, computed) => bool(table, key, spec(key), at(key), computed),
    list: (key, computed) => list(table, key, spec(key), at(key), computed),
  };
}
