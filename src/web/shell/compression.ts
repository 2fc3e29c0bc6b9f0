import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip, type BrotliOptions } from 'node:zlib';
import { pipeline, type Readable, type Transform } from 'node:stream';

export type ContentEncoding = 'br' | 'gzip';

/** Smaller answers are not worth a compressor (headers dominate). */
export const COMPRESS_MIN_BYTES = 1024;
/**
 * Brotli at quality 2: pages are compressed per request, off the event loop (brotli's default 11 is for build-time
 * assets, scripts/build-web.ts). On our HTML, quality 2 makes the same size as 4 (within 1 %) and a third smaller than
 * gzip's default, at about half quality 4's CPU (docs/benchmarks.md, "Explorer (web)": the compressed tx page).
 */
const BROTLI: BrotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 2 } };
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The best encoding the client accepts (q=0 refuses); null for identity. */
export function chooseEncoding(acceptEncoding: string | undefined): ContentEncoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return null;
}

export function compressBuffer(data: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  return encoding === 'br' ? brotliAsync(data, BROTLI) : gzipAsync(data);
}

/**
 * `source` compressed, for answers of unknown length (CSV exports). Joined with pipeline(), not pipe(): a source
 * that fails midway (a store read) destroys the compressor with its error, which the reply handles by ending the
 * answer; with pipe() the source's 'error' had no listener and would have ended the process.
 */
export function compressedStream(source: Readable, encoding: ContentEncoding): Transform {
  const compressor = encoding === 'br' ? createBrotliCompress(BROTLI) : createGzip();
  return pipeline(source, compressor, () => undefined);
}
