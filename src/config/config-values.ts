/** Reading one configuration value: its type, range and allowed values checked, errors naming the key's path. */
import { ConfigError } from '../core/index.js';
import type { KeySpec } from './config-schema.js';

export type Raw = Record<string, unknown>;

export function optionalStr(table: Raw, key: string, spec: KeySpec, path: string): string | null {
  const value = table[key];
  if (value === undefined || value === '') return null;
  return str(table, key, spec, '', path);
}

export function str(table: Raw, key: string, spec: KeySpec, fallback: string, path = key): string {
  const value = table[key];
  if (value === undefined) return fallback;
  if (typeof value !== 'string') throw new ConfigError(`${path} must be a string (${spec.doc})`);
  if (spec.type === 'url' && !/^[a-z][a-z0-9+.-]*:\/\/[^\s]+$/i.test(value)) throw new ConfigError(`${path} must be a URL, got "${value}"`);
  if (spec.type === 'chain' && !['main', 'test', 'regtest'].includes(value)) {
    throw new ConfigError(`${path} must be main, test or regtest, got "${value}"`);
  }
  if (spec.type === 'string' && spec.oneOf && !spec.oneOf.includes(value)) {
    throw new ConfigError(`${path} must be one of ${spec.oneOf.join(', ')}, got "${value}"`);
  }
  return value;
}

export function int(table: Raw, key: string, spec: KeySpec, fallback: number, path: string): number {
  const value = table[key];
  if (value === undefined) return fallback;
  const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
  if (typeof n === 'bigint') return int({ [key]: Number(n) }, key, spec, fallback, path);
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new ConfigError(`${path} must be an integer, got ${JSON.stringify(value)}`);
  if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
    throw new ConfigError(`${path} must be between ${spec.min} and ${spec.max}, got ${n}`);
  }
  return n;
}

export function isTable(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** true/false (TOML), or in the environment true/false/1/0. */
export function bool(table: Raw, key: string, spec: KeySpec, fallback: boolean, path: string): boolean {
  const value = table[key];
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|1)$/i.test(value.trim())) return true;
  if (typeof value === 'string' && /^(false|0)$/i.test(value.trim())) return false;
  throw new ConfigError(`${path} must be true or false (${spec.doc}), got ${JSON.stringify(value)}`);
}
