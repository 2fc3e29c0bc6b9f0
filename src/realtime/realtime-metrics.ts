/** The realtime server's figures for /metrics, read from its stats at scrape time (nothing is counted twice). */
import type { Metrics, SampledSpec } from '../core/infrastructure/metrics.js';
import type { RealtimeHandle, RealtimeStats } from './attach-realtime.js';

export function registerRealtimeMetrics(metrics: Metrics, realtime: Pick<RealtimeHandle, 'stats'>): void {
  const one = (name: string, help: string, type: SampledSpec['type'], pick: (s: RealtimeStats) => number): void =>
    metrics.sampled({ name, help, type, sample: () => [{ labels: {}, value: pick(realtime.stats()) }] });
  one('outpoint_realtime_connections', 'Open Pusher-protocol websocket connections.', 'gauge', (s) => s.connections);
  one('outpoint_realtime_channels', 'Channels with at least one subscriber.', 'gauge', (s) => s.channels);
  one('outpoint_realtime_messages_sent_total', 'Messages written to websocket clients (events and protocol replies).', 'counter', (s) => s.messagesSent);
  one('outpoint_realtime_messages_dropped_total', 'Messages not written: the socket was closing, or its client was too slow.', 'counter', (s) => s.messagesDropped);
  one('outpoint_realtime_slow_consumer_closes_total', 'Clients closed (4100) because their unread messages exceeded the buffer limit.', 'counter', (s) => s.slowConsumersClosed);
  one('outpoint_realtime_idle_closes_total', 'Clients closed for not answering a ping.', 'counter', (s) => s.idleClosed);
  one('outpoint_realtime_connections_rejected_total', 'Connection attempts refused (wrong app key, protocol, capacity).', 'counter', (s) => s.connectionsRejected);
  one('outpoint_realtime_events_delivered_total', 'Channel event messages delivered to subscribers (one per subscriber and event).', 'counter', (s) => s.eventsDelivered);
  metrics.sampled({
    name: 'outpoint_realtime_subscriptions',
    help: 'Channel subscriptions, by channel type (address, blockchain, ticker).',
    type: 'gauge',
    labels: ['channel_type'],
    sample: () => Object.entries(realtime.stats().subscriptionsByKind).map(([kind, value]) => ({ labels: { channel_type: kind }, value })),
  });
}
