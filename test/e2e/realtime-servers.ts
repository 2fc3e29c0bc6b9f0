/**
 * Realtime servers on loopback for the pusher-js tests: each attached to its own HTTP server over one event bus, and
 * the clients (pusher-js or raw websockets) opened against them, all closed by close().
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger, type EventBus, type NetworkId } from '../../src/core/index.js';
import { getNetworkParams, type NetworkParams } from '../../src/chains/addressing.js';
import { attachRealtime, type RealtimeHandle } from '../../src/realtime/attach-realtime.js';
import type { RealtimeLimits } from '../../src/realtime/connections/realtime-limits.js';
import { connected, pusherClient, RawClient, type Pusher } from '../helpers/pusher-clients.js';

export const KEY = 'outpoint-test-key';
export const params = getNetworkParams('LTCTEST', 'regtest');
const networks = new Map<NetworkId, NetworkParams>([['LTCTEST', params]]);

export interface RealtimeServer {
  readonly port: number;
  readonly realtime: RealtimeHandle;
}

export class RealtimeServers {
  readonly #servers: { http: Server; realtime: RealtimeHandle }[] = [];
  readonly #clients: Pusher[] = [];
  readonly #raws: RawClient[] = [];

  constructor(private readonly bus: EventBus) {}

  async serve(limits: Partial<RealtimeLimits> = {}): Promise<RealtimeServer> {
    const http = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const realtime = attachRealtime(http, { appKey: KEY, bus: this.bus, networks, logger: silentLogger, limits });
    this.#servers.push({ http, realtime });
    return { port: (http.address() as AddressInfo).port, realtime };
  }

  /** A pusher-js client; with the right key (and `waitConnected`), connected before it is returned. */
  async client(port: number, key = KEY, waitConnected = key === KEY): Promise<Pusher> {
    const pusher = pusherClient(port, key);
    this.#clients.push(pusher);
    if (waitConnected) await connected(pusher);
    return pusher;
  }

  raw(port: number, path = `/app/${KEY}?protocol=7&client=raw&version=1`): RawClient {
    const c = RawClient.connect(port, path);
    this.#raws.push(c);
    return c;
  }

  async close(): Promise<void> {
    for (const c of this.#clients) c.disconnect();
    for (const c of this.#raws) c.close();
    for (const s of this.#servers) {
      await s.realtime.close();
      await new Promise((resolve) => s.http.close(resolve));
    }
  }
}
