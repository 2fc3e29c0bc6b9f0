import type { Duplex } from 'node:stream';
import { WebSocket } from 'ws';
import { PusherCode } from '../protocol/error-codes.js';
import { errorFrame, PING_FRAME, type WireFrame } from '../protocol/protocol-messages.js';
import type { Subscriber } from '../channels/channel-registry.js';
import { directFd, finishDirect, plainFd } from '../sending/socket-write.js';
import type { RealtimeLimits } from './realtime-limits.js';

/** Counters shared by every connection of one server (for stats()). */
export interface ConnectionCounters {
  messagesSent: number;
  messagesDropped: number;
  slowConsumersClosed: number;
  idleClosed: number;
}

/** Close reasons travel in a control frame: at most 123 bytes. */
function closeReason(message: string): string {
  return Buffer.byteLength(message) <= 123 ? message : Buffer.from(message).subarray(0, 120).toString('utf8');
}

/**
 * One client socket: what it subscribed to, its inbound rate budget, its liveness, and the one
 * place frames are written, so the slow-consumer rule cannot be bypassed. No timers of its own:
 * the server sweeps every connection's liveness from one interval (a timer per socket costs
 * memory at 10,000 idle connections).
 */
export class Connection implements Subscriber {
  readonly channels = new Set<string>();
  private lastSeen: number;
  private pingSentAt: number | null = null;
  private tokens: number;
  private tokensAt: number;
  private closing = false;
  /** The socket's descriptor for batched sends (-1 for TLS or non-TCP streams); valid while the socket is not destroyed. */
  private readonly fd: number;

  /**
   * @param socket the upgraded TCP socket under `ws`: channel events are written to it pre-framed.
   *   ws writes synchronously (no permessage-deflate here), so frames from both stay in order.
   */
  constructor(
    private readonly ws: WebSocket,
    private readonly socket: Duplex,
    readonly socketId: string,
    private readonly limits: RealtimeLimits,
    private readonly counters: ConnectionCounters,
    now: number,
  ) {
    this.lastSeen = now;
    this.tokens = limits.messageBurst;
    this.tokensAt = now;
    this.fd = plainFd(socket);
  }

  /**
   * Writes a frame unless the socket's send buffer already holds more than maxBufferedBytes:
   * then the frame is dropped and the client closed with 4100, so a reader that stalls costs at
   * most that much memory. pusher-js reconnects after a backoff and subscribes again; what it
   * missed meanwhile it must fetch over the REST API.
   */
  deliver(frame: WireFrame): boolean {
    if (!this.writable()) return false;
    this.socket.write(frame.bytes);
    this.counters.messagesSent++;
    return true;
  }

  /**
   * The descriptor when a frame may be sent on it directly: open, nothing queued on the stream (so
   * order is kept, and the slow-consumer rule, which reads the queue, has nothing to act on). Else
   * -1, and deliver() applies the rules.
   */
  directFd(): number {
    return this.isOpen() ? directFd(this.socket, this.fd) : -1;
  }

  completeDirect(frame: WireFrame, sent: number): void {
    finishDirect(this.socket, frame.bytes, sent);
    this.counters.messagesSent++;
  }

  /** Protocol messages of this connection alone (handshake, replies, errors). */
  send(text: string): boolean {
    if (!this.writable()) return false;
    this.ws.send(text);
    this.counters.messagesSent++;
    return true;
  }

  private isOpen(): boolean {
    return !this.closing && this.ws.readyState === WebSocket.OPEN;
  }

  private writable(): boolean {
    if (!this.isOpen()) {
      this.counters.messagesDropped++;
      return false;
    }
    if (this.ws.bufferedAmount > this.limits.maxBufferedBytes) {
      this.counters.messagesDropped++;
      this.counters.slowConsumersClosed++;
      this.close(PusherCode.OverCapacity, 'Over capacity: the client is not reading its messages fast enough');
      return false;
    }
    return true;
  }

  sendError(code: PusherCode, message: string): void {
    this.send(errorFrame(code, message));
  }

  /** Says why in a `pusher:error` first (for clients that ignore close codes), then closes with the code. */
  close(code: PusherCode, message: string): void {
    if (this.closing) return;
    if (this.ws.readyState === WebSocket.OPEN && this.ws.bufferedAmount <= this.limits.maxBufferedBytes) {
      this.ws.send(errorFrame(code, message));
    }
    this.closing = true;
    this.ws.close(code, closeReason(message));
  }

  /** Drops the socket without a closing handshake (shutdown of a client that does not answer). */
  terminate(): void {
    this.closing = true;
    this.ws.terminate();
  }

  /** Any inbound message proves the client alive. */
  touch(now: number): void {
    this.lastSeen = now;
    this.pingSentAt = null;
  }

  /** Token bucket: false when the client sends faster than messagesPerSecond beyond its burst. */
  takeToken(now: number): boolean {
    const { messagesPerSecond, messageBurst } = this.limits;
    this.tokens = Math.min(messageBurst, this.tokens + ((now - this.tokensAt) / 1000) * messagesPerSecond);
    this.tokensAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Pings a client silent for activity_timeout; closes one that then stays silent past pongTimeoutMs. */
  checkLiveness(now: number): void {
    if (this.closing) return;
    if (this.pingSentAt !== null) {
      if (now - this.pingSentAt >= this.limits.pongTimeoutMs) {
        this.counters.idleClosed++;
        this.close(PusherCode.PongNotReceived, 'Pong reply not received');
      }
      return;
    }
    if (now - this.lastSeen >= this.limits.activityTimeoutSec * 1000) {
      this.pingSentAt = now;
      this.send(PING_FRAME);
    }
  }
}
