/**
 * The OpenAPI documents this server publishes (`/api/v2/openapi.json`, `/api/v3/openapi.json`), where the two entry
 * layers meet: the HTTP layer makes each from its route schemas and publishes it here; the web layer's `/docs` page
 * renders what is published. main creates one registry and hands it to both.
 */

/** A JSON schema, as the routes declare it (type, properties, items, description, …). */
export type JsonSchema = Readonly<Record<string, unknown>>;

export interface OpenApiParameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required: boolean;
  readonly description?: string;
  readonly schema: JsonSchema;
}

export interface OpenApiResponse {
  readonly description: string;
  readonly content?: Readonly<Record<string, { readonly schema: JsonSchema }>>;
}

export interface OpenApiOperation {
  readonly operationId: string;
  readonly summary?: string;
  readonly tags?: readonly string[];
  readonly parameters: readonly OpenApiParameter[];
  readonly requestBody?: { readonly required: boolean; readonly content: Readonly<Record<string, { readonly schema: JsonSchema }>> };
  readonly responses: Readonly<Record<string, OpenApiResponse>>;
  /** Overrides the document's security: `[]` for an operation that needs no key. */
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
}

export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly servers: readonly { readonly url: string }[];
  /** Path (`/api/v2/get_tx/{network}/{txid}`) to lower-case method to operation. */
  readonly paths: Readonly<Record<string, Readonly<Record<string, OpenApiOperation>>>>;
  readonly components?: { readonly securitySchemes?: Readonly<Record<string, Readonly<Record<string, string>>>> };
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
}

export interface PublishedDocument {
  /** `v2`, `v3`. */
  readonly version: string;
  /** Where the JSON is served, e.g. /api/v3/openapi.json. */
  readonly path: string;
  readonly document: OpenApiDocument;
}

/** Documents by API version, in the order published; each is made on first read (after every route is registered). */
export class ApiDocuments {
  private readonly entries: { version: string; path: string; make: () => OpenApiDocument }[] = [];

  publish(version: string, path: string, make: () => OpenApiDocument): void {
    this.entries.push({ version, path, make });
  }

  list(): PublishedDocument[] {
    return this.entries.map(({ version, path, make }) => ({ version, path, document: make() }));
  }
}
