import type { PriceQuote } from '../../../core/domain/prices.js';
import { V3_CURRENCY } from '../../../services/prices/price-service.js';
import { decimal8 } from '../../shared/format.presenter.js';

/** What a price object says when no quote is known: the spec types `value` as a string, so never null. */
export const NO_PRICE = '0.00000000';

/**
 * The v3 price object, always `{value: string, currency, updated_at}` (typed clients break on null).
 * Test networks ("currency has no value") and a main network before its first quote answer value
 * "0.00000000" with `updated_at: 0`; otherwise `updated_at` is the time of the quote (UNIX seconds).
 */
export const priceObject = (q: PriceQuote | null | undefined) =>
  q ? { value: decimal8(q.price), currency: V3_CURRENCY, updated_at: q.time } : { value: NO_PRICE, currency: V3_CURRENCY, updated_at: 0 };
