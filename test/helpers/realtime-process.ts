/**
 * One API-like process for the Redis fan-out test: an HTTP server with the realtime server attached,
 * fed by the Redis event bus. Usage: node --import tsx test/helpers/realtime-process.ts <redis-url> <app-key>
 * Prints {"port": N} on stdout once it accepts connections; SIGTERM closes everything and exits 0.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NetworkId } from '../../src/core/index.js';
import { getNetworkParams, type NetworkParams } from '../../src/chains/addressing.js';
import { attachRealtime } from '../../src/realtime/attach-realtime.js';
import { createRedisEventBus } from '../../src/redis/redis-event-bus.js';

const [redisUrl, appKey] = process.argv.slice(2);
if (!redisUrl || !appKey) throw new Error('usage: realtime-process.ts <redis-url> <app-key>');

const logger = {
  info: (message: string, fields?: Record<string, unknown>) => console.error('info', message, fields ?? ''),
  warn: (message: string, fields?: Record<string, unknown>) => console.error('warn', message, fields ?? ''),
  error: (message: string, fields?: Record<string, unknown>) => console.error('error', message, fields ?? ''),
};
const networks = new Map<NetworkId, NetworkParams>([
  ['LTCTEST', getNetworkParams('LTCTEST', 'test')],
  ['BTC', getNetworkParams('BTC')],
]);
const bus = await createRedisEventBus(redisUrl, logger);
const http = createServer((_req, res) => res.writeHead(404).end());
const realtime = attachRealtime(http, { appKey, bus, networks, logger });
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
process.stdout.write(`${JSON.stringify({ port: (http.address() as AddressInfo).port, pid: process.pid })}\n`);

process.once('SIGTERM', () => {
  void (async () => {
    await realtime.close();
    await new Promise((resolve) => http.close(resolve));
    await bus.close();
    process.exit(0);
  })();
});
