/**
 * pusher-js over wss in its own process, so the test's throwaway CA can be trusted the way operators' clients
 * trust a real one (NODE_EXTRA_CA_CERTS, read at start) with full certificate and host name verification.
 * Usage: node --import tsx test/helpers/pusher-wss-client.ts PORT APP_KEY CHANNEL EVENT
 * Prints one JSON line per connection state change ({"state"}), subscription ({"subscribed"}) and event ({"event"}).
 */
import PusherModule from 'pusher-js';

type PusherClass = (typeof PusherModule)['default'];
const Pusher = PusherModule as unknown as PusherClass;
const [port, key, channelName, eventName] = process.argv.slice(2) as [string, string, string, string];

const print = (line: unknown): boolean => process.stdout.write(`${JSON.stringify(line)}\n`);
const pusher = new Pusher(key, {
  wsHost: '127.0.0.1',
  wssPort: Number(port),
  forceTLS: true,
  enabledTransports: ['ws'],
  disableStats: true,
  cluster: 'local',
});
pusher.connection.bind('state_change', (states: { current: string }) => print({ state: states.current }));
pusher.connection.bind('error', (error: unknown) => print({ error: String((error as { error?: { message?: string } }).error?.message ?? JSON.stringify(error)) }));
const channel = pusher.subscribe(channelName);
channel.bind('pusher:subscription_succeeded', () => print({ subscribed: channelName }));
channel.bind(eventName, (data: unknown) => print({ event: data }));
process.on('SIGTERM', () => {
  pusher.disconnect();
  process.exit(0);
});
