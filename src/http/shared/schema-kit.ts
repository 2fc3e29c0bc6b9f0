/**
 * Small JSON-schema builders: the schemas validate requests, drive fast serialization and become the OpenAPI document.
 * Request schemas (params, body) keep their literal types, so a route's handler gets its `params` and `body` types
 * from the same schema (RouteTypes, @fastify/type-provider-json-schema-to-ts): nothing is declared twice.
 */
import type { FastifyTypeProvider } from 'fastify';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { LISTED_NETWORKS } from '../../chains/networks.js';

export type Schema = Record<string, unknown>;

/**
 * Types a route's request (params, querystring, body) from its schema. Replies are left untyped (unknown): their
 * schemas are the spec's long field lists, written by the presenters, whose own types check them.
 */
export interface RouteTypes extends FastifyTypeProvider {
  validator: this['schema'] extends JSONSchema ? FromSchema<this['schema']> : unknown;
  serializer: unknown;
}

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
  network: { type: 'string', minLength: 1, maxLength: 16, description: `Network acronym: ${LISTED_NETWORKS.join(', ')}` },
  address: { type: 'string', minLength: 1, maxLength: 200, description: 'Address of the network' },
  txid: { type: 'string', minLength: 1, maxLength: 100, description: 'Transaction id (64 hex)' },
  index: { type: 'string', minLength: 1, maxLength: 20, description: 'Non-negative integer' },
  blockid: { type: 'string', minLength: 1, maxLength: 100, description: 'Block hash (64 hex) or block number' },
  cursor: { type: 'string', minLength: 1, maxLength: 100, description: 'After-txid (64 hex, a confirmed tx) or minimum confirmations (integer)' },
  coin: { type: 'string', minLength: 1, maxLength: 16 },
} as const satisfies Record<string, Schema>;

/** Path parameters (all strings; `required` names the ones every URL has), typed as written. */
export function params<const Props extends Readonly<Record<string, JSONSchema>>, const Required extends readonly (keyof Props & string)[]>(
  props: Props, required: Required,
): { readonly type: 'object'; readonly required: Required; readonly properties: Props } {
  return { type: 'object', required, properties: props };
}

/** What a route schema says besides its replies: summary and tag for the OpenAPI document, the request's schemas. */
export interface RouteRequest<Params extends JSONSchema | undefined, Body extends JSONSchema | undefined> {
  summary: string;
  tag: string;
  params?: Params;
  body?: Body;
}

/** A route schema with its request schemas' literal types kept (RouteTypes types the handler from them). */
export type TypedRoute<Params, Body> = { readonly summary: string; readonly tags: string[]; readonly params: Params; readonly body: Body; readonly response: Schema };

/** The route schema of `request` with the replies `response` (status → body schema). */
export function typedRoute<const Params extends JSONSchema | undefined, const Body extends JSONSchema | undefined>(
  request: RouteRequest<Params, Body>, response: Schema,
): TypedRoute<Params, Body> {
  return {
    summary: request.summary,
    tags: [request.tag],
    ...(request.params ? { params: request.params } : {}),
    ...(request.body ? { body: request.body } : {}),
    response,
  } as TypedRoute<Params, Body>;
}

/** A v2 route's schema: the success body and the failure body (also for 503: the node is down or the index is syncing). */
export function routeSchema<const Params extends JSONSchema | undefined = undefined, const Body extends JSONSchema | undefined = undefined>(
  opts: RouteRequest<Params, Body> & { ok: Schema; fail: Schema; failStatus?: number },
): TypedRoute<Params, Body> {
  return typedRoute(opts, { 200: opts.ok, [opts.failStatus ?? 404]: opts.fail, 503: opts.fail });
}

/** A v2 route answering the spec's shape A: `{status: "success", data}`, failures `{status: "fail", data: {field: message}}`. */
export function shapeARoute<const Params extends JSONSchema | undefined>(tag: string, summary: string, params: Params, data: Schema): TypedRoute<Params, undefined> {
  return routeSchema({ summary, tag, params, ok: success(data), fail: failA });
}

/** A v2 display route (shape B): success with code 200 and an empty message, failures `{status, code, message}`. */
export function displayRoute<const Params extends JSONSchema | undefined>(summary: string, params: Params, data: Schema, failStatus?: number): TypedRoute<Params, undefined> {
  return routeSchema({ summary, tag: 'display', params, ok: displaySuccess(data), fail: failB, ...(failStatus !== undefined ? { failStatus } : {}) });
}
