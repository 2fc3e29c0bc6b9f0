import type { NetworkId } from '../../core/index.js';
import type { NetworkParams } from '../../chains/addressing.js';
import { resolveChannel } from '../channels/channel-names.js';
import type { ChannelRegistry } from '../channels/channel-registry.js';
import type { Connection } from './connection.js';
import { PusherCode } from '../protocol/error-codes.js';
import { parseClientMessage, PONG_FRAME, subscriptionSucceeded } from '../protocol/protocol-messages.js';
import type { RealtimeLimits } from './realtime-limits.js';

export interface ClientMessageContext {
  readonly registry: ChannelRegistry;
  readonly networks: ReadonlyMap<NetworkId, NetworkParams>;
  readonly limits: RealtimeLimits;
}

/**
 * What a client may say: ping, pong, subscribe, unsubscribe. Errors are answered with
 * `pusher:error` and the connection stays open: a client bug on one channel should not cost it
 * the others. Size and rate are checked before parsing so a flood costs no JSON work.
 */
export function handleClientMessage(ctx: ClientMessageContext, conn: Connection, raw: Buffer, isBinary: boolean, now: number): void {
  conn.touch(now);
  if (!conn.takeToken(now)) {
    conn.sendError(PusherCode.ClientEventRejected, `Rate limit: at most ${ctx.limits.messagesPerSecond} messages per second`);
    return;
  }
  if (raw.length > ctx.limits.maxMessageBytes) {
    conn.sendError(PusherCode.MessageTooLarge, `Message larger than ${ctx.limits.maxMessageBytes} bytes`);
    return;
  }
  const message = isBinary ? null : parseClientMessage(raw.toString('utf8'));
  if (!message) {
    conn.sendError(PusherCode.InvalidMessage, 'Expected a JSON text frame {"event": …, "data": …}');
    return;
  }
  switch (message.event) {
    case 'pusher:ping':
      conn.send(PONG_FRAME);
      return;
    case 'pusher:pong':
      return;
    case 'pusher:subscribe':
      subscribe(ctx, conn, channelOf(message.data));
      return;
    case 'pusher:unsubscribe': {
      const name = channelOf(message.data);
      if (name !== null && conn.channels.delete(name)) ctx.registry.unsubscribe(conn, name);
      return;
    }
    case 'pusher:signin':
      conn.sendError(PusherCode.Unauthorized, 'User authentication is not offered: every channel here is public');
      return;
    default:
      if (message.event.startsWith('client-')) {
        conn.sendError(PusherCode.ClientEventRejected, 'Client events are not accepted: every channel here is public');
      } else {
        conn.sendError(PusherCode.InvalidMessage, `Unknown event ${message.event.slice(0, 64)}`);
      }
  }
}

function channelOf(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const channel = (data as { channel?: unknown }).channel;
  return typeof channel === 'string' ? channel : null;
}

function subscribe(ctx: ClientMessageContext, conn: Connection, name: string | null): void {
  if (name === null) {
    conn.sendError(PusherCode.InvalidMessage, 'pusher:subscribe needs data.channel');
    return;
  }
  // pusher-js subscribes again after every reconnect: a repeat is answered, not refused.
  if (!conn.channels.has(name)) {
    if (conn.channels.size >= ctx.limits.maxSubscriptionsPerConnection) {
      conn.sendError(PusherCode.SubscriptionLimit, `${name}: at most ${ctx.limits.maxSubscriptionsPerConnection} channels per connection`);
      return;
    }
    const resolved = resolveChannel(name, ctx.networks);
    if (!resolved.ok) {
      conn.sendError(resolved.code, resolved.message);
      return;
    }
    conn.channels.add(name);
    ctx.registry.subscribe(conn, name, resolved.spec);
  }
  conn.send(subscriptionSucceeded(name));
}
