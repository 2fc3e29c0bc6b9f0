/** Every method this server answers, by name. */
import { CHAIN_METHODS } from './chain-methods.js';
import type { MethodSpec } from './method-spec.js';
import { SCRIPTHASH_METHODS } from './scripthash-methods.js';
import { SERVER_METHODS } from './server-methods.js';
import { TRANSACTION_METHODS } from './transaction-methods.js';

export const METHODS: ReadonlyMap<string, MethodSpec> = new Map(
  [...SERVER_METHODS, ...CHAIN_METHODS, ...SCRIPTHASH_METHODS, ...TRANSACTION_METHODS].map((m) => [m.name, m]),
);
