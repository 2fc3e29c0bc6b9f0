/**
 * The rules for sending a frame straight to a plain TCP socket's descriptor (send-batch.ts does the
 * sending) without breaking the stream's guarantees.
 *
 * Why direct: a block event goes to every subscriber of its channel, one system call per socket. Node's
 * stream path (Writable state, a WriteWrap per call, the after-write tick) added about a third to the
 * system call's own cost (docs/benchmarks.md, Realtime).
 *
 * Order is kept: the direct send is allowed only when the stream holds no bytes (writableLength 0 means
 * nothing is buffered or in flight in libuv), and whatever the kernel did not take (a partial send, EAGAIN
 * when the client's receive window is full, an error) continues through socket.write, behind the bytes
 * already sent. Errors surface as before, from the stream. Encrypted sockets always use the stream: their
 * descriptor carries TLS records, not frames.
 */
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { TLSSocket } from 'node:tls';

interface HandleWithFd {
  readonly _handle?: { readonly fd?: number } | null;
}

/** The descriptor of a plain TCP socket, or -1 (TLS, other streams, no handle). */
export function plainFd(socket: Duplex): number {
  if (!(socket instanceof Socket) || socket instanceof TLSSocket) return -1;
  const fd = (socket as unknown as HandleWithFd)._handle?.fd;
  return typeof fd === 'number' ? fd : -1;
}

/**
 * `fd` (the socket's, from plainFd) when the next frame may be sent on it directly, else -1. A destroyed
 * socket's descriptor is closed, maybe already reused by another connection: never written.
 */
export function directFd(socket: Duplex, fd: number): number {
  return fd >= 0 && !socket.destroyed && socket.writableLength === 0 ? fd : -1;
}

/** After a direct send that took `sent` bytes (negative: an errno, none taken), the rest goes through the stream. */
export function finishDirect(socket: Duplex, bytes: Uint8Array, sent: number): void {
  if (sent < bytes.length) socket.write(sent <= 0 ? bytes : bytes.subarray(sent));
}
