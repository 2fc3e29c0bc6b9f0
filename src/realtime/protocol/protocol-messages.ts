import { PusherCode } from './error-codes.js';
import { textFrame } from './websocket-frame.js';

/*
 * Pusher protocol 7 frames. Server-to-client channel events carry `data` as a JSON string inside
 * the JSON frame (double encoding): pusher-js parses it a second time. `pusher:error` is the one
 * frame whose data is a plain object, as the protocol defines it.
 */

export interface ClientMessage {
  readonly event: string;
  readonly data: unknown;
  readonly channel: string | null;
}

export function parseClientMessage(text: string): ClientMessage | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { event, data, channel } = parsed as Record<string, unknown>;
  if (typeof event !== 'string') return null;
  // Some clients double-encode `data` on the way in too; accept both forms.
  let body = data;
  if (typeof data === 'string') {
    try {
      body = JSON.parse(data);
    } catch {
      body = data;
    }
  }
  return { event, data: body, channel: typeof channel === 'string' ? channel : null };
}

export function connectionEstablished(socketId: string, activityTimeoutSec: number): string {
  return JSON.stringify({
    event: 'pusher:connection_established',
    data: JSON.stringify({ socket_id: socketId, activity_timeout: activityTimeoutSec }),
  });
}

export function errorFrame(code: PusherCode, message: string): string {
  return JSON.stringify({ event: 'pusher:error', data: { code, message } });
}

export const PING_FRAME = JSON.stringify({ event: 'pusher:ping', data: '{}' });
export const PONG_FRAME = JSON.stringify({ event: 'pusher:pong', data: '{}' });

export function subscriptionSucceeded(channel: string): string {
  return JSON.stringify({ event: 'pusher_internal:subscription_succeeded', channel, data: '{}' });
}

/** A channel event as the exact bytes every subscriber's socket receives: encoded and framed once. */
export interface WireFrame {
  readonly bytes: Buffer;
}

export function channelEventFrame(channel: string, event: string, payload: unknown): WireFrame {
  return { bytes: textFrame(Buffer.from(JSON.stringify({ event, channel, data: JSON.stringify(payload) }))) };
}
