/**
 * One API version's OpenAPI 3.1 document, made from the route schemas that validate its requests and serialize its
 * answers (so it cannot drift from what the server does). Pure: the plugin collects the routes and serves the result.
 */
import type { JsonSchema, OpenApiDocument, OpenApiOperation, OpenApiParameter, OpenApiResponse } from '../../core/infrastructure/api-documents.js';

export interface CollectedRoute {
  readonly method: 'GET' | 'POST';
  /** Fastify's URL with the prefix, e.g. /api/v3/transactions/:network/:address/:page?. */
  readonly url: string;
  readonly schema: Record<string, unknown>;
  /** v3 account_info: authenticated, but neither counted nor refused over quota. */
  readonly quotaFree: boolean;
}

export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  readonly description: string;
  readonly serverUrl: string;
}

/** What sets one API version's document apart. */
export interface OpenApiFlavour {
  /** v2: every operation also answers JSONP (`?callback=`). */
  readonly jsonp: boolean;
  /** v3: every operation needs this header; the 401 and 429 answers it causes have the version's failure body. */
  readonly apiKey?: { readonly header: string; readonly failure: JsonSchema };
}

const SECURITY_SCHEME = 'apiKey';

/** What each answer means, by status (Fastify's `4xx` ranges are OpenAPI's `4XX`). */
const STATUS_MEANING: Readonly<Record<string, string>> = {
  '200': 'Success',
  '400': 'Invalid input: the answer names the field',
  '401': 'The API key is missing, unknown or revoked',
  '404': 'Not found, or a malformed identifier: the answer says which',
  '429': "Over the plan's daily quota (until 00:00 UTC, X-Quota-* headers) or its concurrent requests",
  '503': 'The node or the index database is unavailable, or the network is in its initial sync (Retry-After)',
  '4XX': 'Invalid input (400) or not found (404): the answer says which field',
  '5XX': 'Unavailable (503): the node or the index database, or the network is in its initial sync (Retry-After)',
};

/** `/a/:x/:y?` → ['/a/{x}/{y}', '/a/{x}']: OpenAPI has no optional path segments, so each variant is a path. */
export function openApiPaths(url: string): string[] {
  const optional = /\/:([A-Za-z_]+)\?$/.exec(url);
  const convert = (u: string) => u.replace(/:([A-Za-z_]+)\??/g, '{$1}');
  return optional ? [convert(url), convert(url.slice(0, optional.index))] : [convert(url)];
}

/** `/api/v2/get_price/{coin}/{base_currency}` → get_price_by_coin_base_currency: unique per document, usable as a name. */
function operationId(prefix: string, path: string): string {
  const [name = 'root', ...rest] = path.slice(prefix.length + 1).split('/');
  const params = rest.map((segment) => segment.replace(/[{}]/g, ''));
  return `${name.replace(/\W/g, '_')}${params.length > 0 ? `_by_${params.join('_')}` : ''}`;
}

function responses(route: CollectedRoute, flavour: OpenApiFlavour): Record<string, OpenApiResponse> {
  const declared = (route.schema['response'] ?? {}) as Record<string, JsonSchema>;
  const out: Record<string, OpenApiResponse> = {};
  const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
  for (const [status, schema] of Object.entries(declared)) {
    const key = status.toUpperCase();
    out[key] = { description: STATUS_MEANING[key] ?? 'Failure', content: json(schema) };
  }
  if (flavour.apiKey) {
    out['401'] = { description: STATUS_MEANING['401']!, content: json(flavour.apiKey.failure) };
    if (!route.quotaFree) out['429'] = { description: STATUS_MEANING['429']!, content: json(flavour.apiKey.failure) };
  }
  return out;
}

function operation(prefix: string, route: CollectedRoute, path: string, flavour: OpenApiFlavour): OpenApiOperation {
  const { summary, tags, params, body } = route.schema as {
    summary?: string;
    tags?: string[];
    params?: { properties?: Record<string, Record<string, unknown>> };
    body?: JsonSchema;
  };
  const inPath = new Set([...path.matchAll(/\{([A-Za-z_]+)\}/g)].map((m) => m[1]!));
  const parameters: OpenApiParameter[] = Object.entries(params?.properties ?? {})
    .filter(([name]) => inPath.has(name))
    .map(([name, { description, ...schema }]) => ({ name, in: 'path', required: true, ...(typeof description === 'string' ? { description } : {}), schema }));
  if (flavour.jsonp) parameters.push({ name: 'callback', in: 'query', required: false, description: 'JSONP: wrap the answer in a call to this function', schema: { type: 'string' } });
  const txHex = { type: 'object', properties: { tx_hex: { type: 'string', description: 'The signed transaction, hex' } }, required: ['tx_hex'] };
  const isDocument = path === `${prefix}/openapi.json`;
  return {
    operationId: operationId(prefix, path),
    ...(summary ? { summary } : {}),
    ...(tags ? { tags } : {}),
    parameters,
    ...(route.method === 'POST'
      ? { requestBody: { required: true, content: { 'application/json': { schema: body ?? txHex }, 'application/x-www-form-urlencoded': { schema: txHex } } } }
      : {}),
    responses: isDocument ? { '200': { description: 'This document' } } : responses(route, flavour),
    ...(flavour.apiKey && isDocument ? { security: [] } : {}),
  };
}

export function buildOpenApiDocument(prefix: string, routes: readonly CollectedRoute[], info: OpenApiInfo, flavour: OpenApiFlavour): OpenApiDocument {
  const paths: Record<string, Record<string, OpenApiOperation>> = {};
  for (const route of routes) {
    for (const path of openApiPaths(route.url)) {
      paths[path] ??= {};
      paths[path][route.method.toLowerCase()] = operation(prefix, route, path, flavour);
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    servers: [{ url: info.serverUrl }],
    paths,
    ...(flavour.apiKey
      ? { components: { securitySchemes: { [SECURITY_SCHEME]: { type: 'apiKey', in: 'header', name: flavour.apiKey.header } } }, security: [{ [SECURITY_SCHEME]: [] }] }
      : {}),
  };
}
