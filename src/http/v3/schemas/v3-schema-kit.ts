/** v3 schema pieces on top of the v2 kit: the failure body, price objects, path parameters. */
import type { JSONSchema } from 'json-schema-to-ts';
import { amount, int, obj, P, params, str, typedRoute, type RouteRequest, type Schema, type TypedRoute } from '../../shared/schema-kit.js';

export const v3Fail: Schema = obj({ status: { type: 'string', enum: ['fail'] }, data: obj({ error_message: str }) });

/** `{value, currency: "USD", updated_at}`: value "0.00000000" and updated_at 0 while no price is known (always on test networks). */
export const priceObject: Schema = obj({
  value: { type: 'string', description: 'USD per coin, 8 decimals; "0.00000000" when no price is known' },
  currency: str,
  updated_at: { type: 'integer', description: 'UNIX seconds of the quote; 0 when no price is known (test networks always)' },
});

export const V3P = {
  network: P.network,
  address: P.address,
  hash: { type: 'string', minLength: 1, maxLength: 100, description: 'Transaction id or block hash (64 hex)' },
  blockid: { type: 'string', minLength: 1, maxLength: 100, description: 'Block hash (64 hex) or height' },
  page: { type: 'string', minLength: 1, maxLength: 12, description: 'Page number, 1 = first (default 1)' },
  timestamp: { type: 'string', minLength: 1, maxLength: 12, description: 'UNIX seconds (default: now)' },
} as const satisfies Record<string, Schema>;

/** Path parameters, as the v2 kit's params (typed as written). */
export const v3Params = params;

/** 200 `{status: "success", data}`; every failure status has the v3 body. */
export function v3Route<const Params extends JSONSchema | undefined = undefined, const Body extends JSONSchema | undefined = undefined>(
  opts: RouteRequest<Params, Body> & { data: Schema },
): TypedRoute<Params, Body> {
  return typedRoute(opts, { 200: obj({ status: { type: 'string', enum: ['success'] }, data: opts.data }), '4xx': v3Fail, '5xx': v3Fail });
}

export { amount, int, str };
