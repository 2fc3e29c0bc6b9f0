import { PusherCode } from './error-codes.js';

/** Protocol versions whose public-channel messages are the ones this server sends (pusher-js 8 sends 7). */
const SUPPORTED_PROTOCOLS: ReadonlySet<number> = new Set([5, 6, 7]);

export const APP_PATH_PREFIX = '/app/';

export type HandshakeVerdict = { readonly ok: true } | { readonly ok: false; readonly code: PusherCode; readonly message: string };

/**
 * Checks `/app/{key}?protocol=N&client=…&version=…` as the Pusher service does. The key is checked
 * first: a client of another application learns that before anything about its protocol.
 */
export function checkHandshake(url: URL, appKey: string): HandshakeVerdict {
  const key = decodeURIComponent(url.pathname.slice(APP_PATH_PREFIX.length));
  if (key !== appKey) return { ok: false, code: PusherCode.AppNotFound, message: `Application does not exist: ${key.slice(0, 64)}` };
  const protocol = url.searchParams.get('protocol');
  if (protocol === null || protocol === '') return { ok: false, code: PusherCode.NoProtocolVersion, message: 'No protocol version supplied' };
  if (!/^\d{1,6}$/.test(protocol)) return { ok: false, code: PusherCode.InvalidVersionFormat, message: 'Invalid version string format' };
  if (!SUPPORTED_PROTOCOLS.has(Number(protocol))) {
    return { ok: false, code: PusherCode.UnsupportedProtocolVersion, message: `Unsupported protocol version ${protocol}` };
  }
  return { ok: true };
}
