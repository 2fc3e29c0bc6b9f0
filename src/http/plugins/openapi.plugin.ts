import type { FastifyInstance, RouteOptions } from 'fastify';
import type { ApiDocuments, OpenApiDocument } from '../../core/infrastructure/api-documents.js';
import { buildOpenApiDocument, type CollectedRoute, type OpenApiFlavour, type OpenApiInfo } from './openapi-document.js';

export type { OpenApiFlavour, OpenApiInfo } from './openapi-document.js';

/** The document's own route is in the document too (every route is). */
const DOCUMENT_SCHEMA: Record<string, unknown> = { summary: 'This OpenAPI document', tags: ['reference'] };

/**
 * Serves `{prefix}/openapi.json`, the OpenAPI 3.1 document of every route under `prefix` that has a schema, collected
 * as routes are added (so call this before adding them), and publishes it for the `/docs` page. The document is made
 * on first request, when every route exists, and answered without a key or a rate limit.
 */
export function installOpenApi(app: FastifyInstance, prefix: string, info: OpenApiInfo, flavour: OpenApiFlavour, published?: ApiDocuments): void {
  const routes: CollectedRoute[] = [];
  app.addHook('onRoute', (options: RouteOptions) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    if (!options.url.startsWith(prefix) || !options.schema) return;
    const quotaFree = (options.config as { quotaFree?: boolean } | undefined)?.quotaFree === true;
    for (const method of methods) if (method === 'GET' || method === 'POST') routes.push({ method: method as 'GET' | 'POST', url: options.url, schema: options.schema as Record<string, unknown>, quotaFree });
  });
  let document: OpenApiDocument | null = null;
  const make = (): OpenApiDocument => (document ??= buildOpenApiDocument(prefix, routes, info, flavour));
  let json: string | null = null;
  const path = `${prefix}/openapi.json`;
  app.get(path, { schema: DOCUMENT_SCHEMA, config: { rateLimitExempt: true } }, async (_request, reply) => {
    json ??= JSON.stringify(make());
    return reply.type('application/json; charset=utf-8').send(json);
  });
  published?.publish(prefix.split('/').pop()!, path, make);
}
