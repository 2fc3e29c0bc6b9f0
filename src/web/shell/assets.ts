import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readAssetManifest, type AssetManifest } from './asset-manifest.js';
import { chooseEncoding } from './compression.js';
import { SECURITY_HEADERS } from './security-headers.js';

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** /favicon.ico keeps its name, so browsers must revalidate it now and then. */
const ONE_DAY = 'public, max-age=86400';

interface Asset {
  readonly type: string;
  readonly identity: Buffer;
  readonly br: Buffer;
  readonly gzip: Buffer;
}

export const ASSET_PREFIX = '/assets/';

/**
 * The built assets (`npm run build`: scripts/build-web.ts), held in memory: a handful of files, served with a content
 * hash in the name and cached for a year, each in the encoding the browser prefers (compressed once at build time).
 */
export class WebAssets {
  private readonly byName = new Map<string, Asset>();

  /** The assets in `dir` (WebAssetsMissingError when they were never built). */
  static load(dir: string): WebAssets {
    return new WebAssets(readAssetManifest(dir), dir);
  }

  constructor(
    readonly manifest: AssetManifest,
    dir: string,
  ) {
    for (const name of Object.values(manifest.files)) {
      const type = TYPES[extname(name)];
      if (!type) throw new Error(`web asset ${name}: unknown type`);
      const read = (suffix: string): Buffer => readFileSync(join(dir, name + suffix));
      this.byName.set(name, { type, identity: read(''), br: read('.br'), gzip: read('.gz') });
    }
  }

  /** The URL of a logical asset (app.js, app.css, favicon.svg). */
  url(logical: string): string {
    const name = this.manifest.files[logical];
    if (!name) throw new Error(`web asset ${logical} is not in the manifest`);
    return ASSET_PREFIX + name;
  }

  /** The served bytes of a logical asset in one encoding (tests measure the budgets with it). */
  bytes(logical: string, encoding: 'identity' | 'br' | 'gzip'): Buffer {
    return this.byName.get(this.manifest.files[logical]!)![encoding];
  }

  routes(app: FastifyInstance): void {
    app.get<{ Params: { name: string } }>(`${ASSET_PREFIX}:name`, (request, reply) => this.send(request, reply, request.params.name, IMMUTABLE));
    const favicon = this.manifest.files['favicon.ico']!;
    app.get('/favicon.ico', (request, reply) => this.send(request, reply, favicon, ONE_DAY));
  }

  private send(request: FastifyRequest, reply: FastifyReply, name: string, cacheControl: string): FastifyReply {
    const asset = this.byName.get(name);
    if (!asset) {
      reply.callNotFound();
      return reply;
    }
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (encoding) reply.header('content-encoding', encoding);
    return reply
      .headers(SECURITY_HEADERS)
      .header('content-type', asset.type)
      .header('cache-control', cacheControl)
      .header('vary', 'Accept-Encoding')
      .send(encoding === 'br' ? asset.br : encoding === 'gzip' ? asset.gzip : asset.identity);
  }
}
