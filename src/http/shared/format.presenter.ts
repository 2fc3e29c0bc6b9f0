import { scriptToAsm } from '../../chains/addressing.js';
import { formatDifficulty } from '../../chains/parsing.js';
import { formatCoins, type Sats } from '../../core/domain/money.js';
import { formatPrice } from '../../core/domain/prices.js';
import type { ScriptDescription } from '../../services/transactions/script-description.js';

/** Every v2 amount: a string with exactly 8 decimals. */
export const coins = (value: Sats): string => formatCoins(value);

/** Difficulty as Core prints it, fixed to 8 decimals (a string, as the spec types it); realtime spells it the same. */
export const difficulty = formatDifficulty;

/** Prices as every API spells them (8 decimals). */
export const decimal8 = formatPrice;

export const hex = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

export const asm = (script: Uint8Array): string => scriptToAsm(script);

/** scriptSig assembly shows signatures with their sighash type, as Core does. */
export const sigAsm = (script: Uint8Array): string => scriptToAsm(script, { sighashDecode: true });

/** The address, or for scripts without one the script type (e.g. "nulldata", "multisig"), so the field is always a string. */
export const addressText = (d: ScriptDescription): string => d.address ?? d.type;
