import { InvalidArgumentError } from '../../core/domain/errors.js';

/** Largest accepted count or index: past any real chain, small enough to stay an exact JS integer. */
const MAX_INDEX = 999_999_999;

/** A non-negative decimal integer path segment (no sign, no exponent, at most 9 digits), else InvalidArgumentError(field). */
export function parseIndex(text: string, field: string): number {
  if (!/^\d{1,9}$/.test(text) || Number(text) > MAX_INDEX) {
    throw new InvalidArgumentError(field, `${field} must be a non-negative integer`);
  }
  return Number(text);
}

export function parseOptionalIndex(text: string | undefined, field: string): number | undefined {
  return text === undefined || text === '' ? undefined : parseIndex(text, field);
}

const TXID = /^[0-9a-fA-F]{64}$/;

/**
 * The third segment of get_tx_unspent/received/spent: the spec's after-txid cursor, or (as real
 * clients send) an integer minimum number of confirmations. 64 hex characters are a txid.
 */
export function parseCursor(text: string | undefined): { afterTxid?: string; minConfirmations: number } {
  if (text === undefined || text === '') return { minConfirmations: 0 };
  if (TXID.test(text)) return { afterTxid: text.toLowerCase(), minConfirmations: 0 };
  return { minConfirmations: parseIndex(text, 'after_tx') };
}
