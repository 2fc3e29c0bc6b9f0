/** Stores each fetched quote and publishes one `price` event per exchange price change (not per observation). */
import type { EventBus } from '../core/domain/events.js';
import type { PriceQuote } from '../core/domain/prices.js';
import type { PriceStore } from '../core/store/price-store.js';

export function priceRecorder(store: PriceStore, bus: EventBus): (quotes: readonly PriceQuote[]) => Promise<void> {
  return async (quotes) => {
    // In order, so a later quote of the same pair can never overtake an earlier one.
    for (const quote of quotes) {
      if (await store.record(quote)) {
        bus.publish({ kind: 'price', coin: quote.coin, base: quote.base, exchange: quote.exchange, price: quote.price, time: quote.time });
      }
    }
  };
}
