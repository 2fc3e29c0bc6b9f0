/** Small JSON-schema builders: the schemas validate requests, drive fast serialization and become the OpenAPI document. */
export type Schema = Record<string, unknown>;

export const str: Schema = { type: 'string' };
export const int: Schema = { type: 'integer' };
export const num: Schema = { type: 'number' };
export const bool: Schema = { type: 'boolean' };
export const amount: Schema = { type: 'string', pattern: '^-?\\d+\\.\\d{8}$', description: 'Coins, exactly 8 decimals' };
export const nullable = (type: 'string' | 'integer' | 'boolean' | 'number'): Schema => ({ type: [type, 'null'] });
export const nullableObj = (props: Record<string, Schema>): Schema => ({ ...obj(props), type: ['object', 'null'] });

/** Every listed property is required and nothing else is serialized: the field lists of docs/api-v2.md and docs/api-v3.md, to the letter. */
export function obj(props: Record<string, Schema>): Schema {
  return { type: 'object', additionalProperties: false, required: Object.keys(props), properties: props };
}

export const arr = (items: Schema): Schema => ({ type: 'array', items });

export function success(data: Schema): Schema {
  return obj({ status: { type: 'string', enum: ['success'] }, data });
}

/** Display-data endpoints also carry code 200 and an empty message. */
export function displaySuccess(data: Schema): Schema {
  return obj({ status: { type: 'string', enum: ['success'] }, data, code: { type: 'integer', enum: [200] }, message: { type: 'string', enum: [''] } });
}

export const failA: Schema = {
  type: 'object',
  required: ['status', 'data'],
  properties: { status: { type: 'string', enum: ['fail'] }, data: { type: 'object', additionalProperties: { type: 'string' } } },
};
export const failB: Schema = obj({ status: { type: 'string', enum: ['fail'] }, code: int, message: str });

/** Path parameters. Length limits keep garbage cheap; the services judge content and name the bad field. */
export const P = {
  network: { type: 'string', minLength: 1, maxLength: 16, description: 'Network acronym: DOGE, DOGETEST, BTC, BTCTEST, LTC, LTCTEST' },
  address: { type: 'string', minLength: 1, maxLength: 200, description: 'Address of the network' },
  txid: { type: 'string', minLength: 1, maxLength: 100, description: 'Transaction id (64 hex)' },
  index: { type: 'string', minLength: 1, maxLength: 20, description: 'Non-negative integer' },
  blockid: { type: 'string', minLength: 1, maxLength: 100, description: 'Block hash (64 hex) or block number' },
  cursor: { type: 'string', minLength: 1, maxLength: 100, description: 'After-txid (64 hex, a confirmed tx) or minimum confirmations (integer)' },
  coin: { type: 'string', minLength: 1, maxLength: 16 },
} as const satisfies Record<string, Schema>;

export function params(props: Record<string, Schema>, required: string[]): Schema {
  return { type: 'object', required, properties: props };
}

/**
 * A route's schema: tags/summary for the OpenAPI document, params, the success body and the failure body (also for
 * 503: the node is down or the network's index is in its initial sync).
 */
export function routeSchema(opts: { summary: string; tag: string; params?: Schema; body?: Schema; ok: Schema; fail: Schema; failStatus?: number }): Schema {
  return {
    summary: opts.summary,
    tags: [opts.tag],
    ...(opts.params ? { params: opts.params } : {}),
    ...(opts.body ? { body: opts.body } : {}),
    response: { 200: opts.ok, [opts.failStatus ?? 404]: opts.fail, 503: opts.fail },
  };
}
