import type { PriceQuote } from '../../../core/prices.js';
import { V3_CURRENCY } from '../../../services/usd-price-service.js';
import { decimal8 } from '../../v2/presenters/format.presenter.js';

/** The v3 price object; null while no price is known (test networks always). */
export const priceObject = (q: PriceQuote | null | undefined) => (q ? { value: decimal8(q.price), currency: V3_CURRENCY } : null);
