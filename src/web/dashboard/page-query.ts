/**
 * A dashboard page's query string, declared once: Fastify validates the query with this schema and the JSON-schema
 * type provider types `request.query` from it, so no page casts the query. The named parameters are optional strings;
 * others are allowed and ignored; a repeated one (an array) is refused with the 400 page.
 */
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';

/** Routes typed from their schemas: `app.withTypeProvider<SchemaTyped>()`. */
export type SchemaTyped = JsonSchemaToTsProvider;

type QuerySchema<Names extends readonly string[]> = {
  readonly querystring: { readonly type: 'object'; readonly properties: { readonly [K in Names[number]]: { readonly type: 'string' } } };
};

export function pageQuery<const Names extends readonly string[]>(...names: Names): QuerySchema<Names> {
  return { querystring: { type: 'object', properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])) } } as QuerySchema<Names>;
}
