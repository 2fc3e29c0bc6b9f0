/**
 * Sends one frame to many sockets in one call: the native addon in native/fanout when it is built
 * (npm ci builds it), else the same loop in JavaScript with fs.writeSync.
 *
 * Why: a block event goes to every subscriber of its channel, one system call per socket. The native
 * loop drops the JavaScript around each call (descriptor lookup through the stream handle, argument
 * checks, errors thrown for EAGAIN: a few percent of the time on the bench machine, where the call
 * itself dominates) and can split the sockets over several threads, which one JS thread cannot
 * (docs/benchmarks.md, Realtime).
 */
import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packageRoot } from '../../core/infrastructure/package-root.js';

/**
 * Writes `bytes` to `fds[0..count)`; out[i] = bytes taken by fds[i] (possibly fewer than all), or a
 * negative errno (EAGAIN when its send buffer is full, EPIPE/ECONNRESET when the peer is gone).
 * `threads` > 1 lets the native version split the list between that many threads.
 */
export type SendAll = (fds: Int32Array, count: number, bytes: Uint8Array, out: Int32Array, threads: number) => void;

export const sendAllInJs: SendAll = (fds, count, bytes, out) => {
  for (let i = 0; i < count; i++) {
    try {
      out[i] = writeSync(fds[i]!, bytes);
    } catch (err) {
      const errno = (err as NodeJS.ErrnoException).errno;
      out[i] = typeof errno === 'number' && errno < 0 ? errno : -1;
    }
  }
};

const ADDON_PATH = join(packageRoot(), 'native', 'fanout', 'build', 'Release', 'fanout.node');

function loadNative(): SendAll | null {
  try {
    const addon = createRequire(import.meta.url)(ADDON_PATH) as { sendAll?: unknown };
    return typeof addon.sendAll === 'function' ? (addon.sendAll as SendAll) : null;
  } catch {
    return null;
  }
}

/** The addon's sendAll, or null when it is not built. */
export const nativeSendAll: SendAll | null = loadNative();

/** What the service sends with: the addon when built, else the JavaScript loop. */
export const sendAll: SendAll = nativeSendAll ?? sendAllInJs;
