import type { ApiDocuments } from '../../core/infrastructure/api-documents.js';
import type { WebModule } from '../register-web.js';
import type { SafeHtml } from '../shell/html.js';
import { referenceBody } from './reference-page.js';

/**
 * `/docs`, the API reference page, from the documents the HTTP layer published. The routes cannot change once the
 * server runs, so the body is rendered on the first request and kept.
 */
export function referenceModule(documents: ApiDocuments): WebModule {
  return (app, { shell, options }) => {
    let body: SafeHtml | null = null;
    app.get('/docs', (request, reply) => {
      body ??= referenceBody(documents.list(), options.publicUrl.replace(/\/+$/, ''));
      return shell.page(request, reply, { title: 'API reference', body, description: 'The v2 and v3 REST APIs of this server: every operation, its parameters, an example and its answer.' });
    });
  };
}
