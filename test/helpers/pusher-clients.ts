/** pusher-js (the official client, unchanged) and raw ws clients for the realtime e2e tests. */
import PusherModule, { type Channel } from 'pusher-js';
import { WebSocket } from 'ws';
import { waitFor } from './regtest-node.js';

// pusher-js's Node bundle sets module.exports to the class; its typings declare an ES default
// export, which NodeNext types as `.default` of a CommonJS module. Same value, typed right.
type PusherClass = (typeof PusherModule)['default'];
export type Pusher = InstanceType<PusherClass>;
const Pusher = PusherModule as unknown as PusherClass;

export function pusherClient(port: number, key: string): Pusher {
  return new Pusher(key, {
    wsHost: '127.0.0.1',
    wsPort: port,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    // Required by pusher-js even when wsHost names the server.
    cluster: 'local',
  });
}

export async function connected(pusher: Pusher, timeoutMs = 10_000): Promise<void> {
  await waitFor(() => pusher.connection.state === 'connected', timeoutMs, 'pusher-js connected');
}

export function subscribed(pusher: Pusher, name: string, timeoutMs = 10_000): Promise<Channel> {
  const channel = pusher.subscribe(name);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no subscription_succeeded for ${name}`)), timeoutMs);
    channel.bind('pusher:subscription_succeeded', () => {
      clearTimeout(timer);
      resolve(channel);
    });
  });
}

/** Pusher error codes as pusher-js reports them (directly, or wrapped as a WebSocketError during the handshake). */
export function errorCodes(pusher: Pusher): number[] {
  const codes: number[] = [];
  pusher.connection.bind('error', (err: { data?: { code?: number }; error?: { data?: { code?: number } } }) => {
    const code = err.data?.code ?? err.error?.data?.code;
    if (typeof code === 'number') codes.push(code);
  });
  return codes;
}

/** Every event a channel binding receives, with a way to wait for the next one matching a predicate. */
export class Recorder<T = unknown> {
  readonly events: T[] = [];

  constructor(channel: Channel, event: string) {
    channel.bind(event, (data: T) => this.events.push(data));
  }

  async next(predicate: (event: T) => boolean = () => true, timeoutMs = 10_000): Promise<T> {
    let found: T | undefined;
    await waitFor(() => (found = this.events.find(predicate)) !== undefined, timeoutMs, 'realtime event');
    return found!;
  }
}

export interface RawFrame {
  readonly event: string;
  readonly channel?: string;
  readonly data: unknown;
}

/** A plain websocket speaking the protocol by hand: what pusher-js would hide (pings, close codes). */
export class RawClient {
  readonly frames: RawFrame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  answerPings = false;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as RawFrame;
      this.frames.push(frame);
      if (this.answerPings && frame.event === 'pusher:ping') this.send({ event: 'pusher:pong', data: {} });
    });
    this.closed = new Promise((resolve) => ws.on('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() })));
    ws.on('error', () => undefined);
  }

  static connect(port: number, path: string): RawClient {
    return new RawClient(new WebSocket(`ws://127.0.0.1:${port}${path}`));
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  async next(predicate: (frame: RawFrame) => boolean, timeoutMs = 10_000): Promise<RawFrame> {
    let found: RawFrame | undefined;
    await waitFor(() => (found = this.frames.find(predicate)) !== undefined, timeoutMs, 'raw frame');
    return found!;
  }

  async errorCode(timeoutMs = 5_000): Promise<number> {
    const frame = await this.next((f) => f.event === 'pusher:error', timeoutMs);
    return (frame.data as { code: number }).code;
  }

  close(): void {
    this.ws.terminate();
  }
}
