import { formatPrice, type PriceEvent } from '../../../core/index.js';

export interface PriceUpdatePayload {
  readonly type: 'price';
  readonly value: {
    readonly time: number;
    readonly price: string;
    readonly price_base: string;
    readonly symbol: string;
    readonly exchange: string;
  };
}

export function priceUpdatePayload(event: PriceEvent): PriceUpdatePayload {
  return {
    type: 'price',
    value: { time: event.time, price: formatPrice(event.price), price_base: event.base, symbol: event.coin, exchange: event.exchange },
  };
}
