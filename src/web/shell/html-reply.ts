import type { FastifyReply, FastifyRequest } from 'fastify';
import { chooseEncoding, COMPRESS_MIN_BYTES, compressBuffer } from './compression.js';
import { SECURITY_HEADERS } from './security-headers.js';

/**
 * Sends HTML (a page or a live fragment) with the security headers and, when the client accepts it, compressed.
 * Every explorer answer goes through here, also those rendered outside the web plugin (the site-wide 404), so
 * none can miss its headers. Pages show live data: browsers revalidate (no-cache) rather than reuse them.
 */
export async function sendHtml(request: FastifyRequest, reply: FastifyReply, status: number, markup: string): Promise<FastifyReply> {
  // The APIs' CORS headers (set app-wide) have no business on pages.
  reply.removeHeader('access-control-allow-origin');
  reply.removeHeader('access-control-expose-headers');
  reply
    .code(status)
    .headers(SECURITY_HEADERS)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('vary', 'Accept-Encoding, Cookie');
  const data = Buffer.from(markup, 'utf8');
  const encoding = data.length >= COMPRESS_MIN_BYTES ? chooseEncoding(request.headers['accept-encoding']) : null;
  if (!encoding) return reply.send(data);
  return reply.header('content-encoding', encoding).send(await compressBuffer(data, encoding));
}
