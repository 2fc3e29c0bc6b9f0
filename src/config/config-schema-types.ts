/** The shape of a configuration key's description (config-schema.ts holds the keys). */

/**
 * `list`: a TOML array of strings, or in the environment one comma-separated string. `boolean`: true/false (env: also
 * 1/0). `trust-proxy`: true/false, a hop count, or a list of addresses (env: one of those as text).
 */
export type KeyType = 'string' | 'integer' | 'url' | 'chain' | 'list' | 'boolean' | 'trust-proxy';

/** A default that depends on other keys, the network or the machine: the loader computes it, the docs say it in words. */
export interface DerivedDefault {
  readonly derived: string;
}

/** A key's default: the value the loader uses, `null` (none: the feature is off or the value absent) or a derived one. */
export type KeyDefault = string | number | boolean | readonly string[] | null | DerivedDefault;

export interface KeySpec {
  readonly type: KeyType;
  readonly min?: number;
  readonly max?: number;
  /** For strings and lists: the allowed values. */
  readonly oneOf?: readonly string[];
  readonly default: KeyDefault;
  /** No default: the key must be set (`default` is then null). */
  readonly required?: true;
  /** What it means (the README's "meaning", and part of the loader's messages). */
  readonly doc: string;
  /** Keys sharing a row (the exchanges' `<id>_url`) are one row of the README's table, named this. */
  readonly row?: string;
}

export const derived = (text: string): DerivedDefault => ({ derived: text });
