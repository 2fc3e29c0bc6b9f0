/**
 * A scripted P2P peer on loopback, for the listener's tests and benchmark: it accepts connections, answers the
 * handshake as a node would (version, verack), records what it is sent, and lets the test write anything at all to
 * each connection (well-formed invs and txs, or garbage, oversized headers, another network's magic, inv floods).
 */
import net from 'node:net';
import { encodeFrame, FrameDecoder, magicBytes, type Frame } from '../../src/p2p/wire/frame.js';
import { decodeInventory, encodeInventory, encodeVersion, InvType, type InvEntry } from '../../src/p2p/wire/messages.js';

export interface FakePeerOptions {
  readonly magic: string;
  /** Complete the handshake (default true); false leaves the listener waiting for version. */
  readonly handshake?: boolean;
  readonly version?: number;
  /** Serve getdata for txs registered with `offer` (default true); unknown ones get notfound. */
  readonly serve?: boolean;
  /** Loopback address to listen on (default 127.0.0.1; any 127.x.y.z works on Linux, for /16 tests). */
  readonly host?: string;
}

export class FakePeerConnection {
  readonly received: Frame[] = [];
  closed = false;
  private readonly decoder: FrameDecoder;

  constructor(
    readonly socket: net.Socket,
    private readonly peer: FakePeer,
  ) {
    this.decoder = new FrameDecoder(peer.magic);
    socket.on('data', (chunk: Buffer) => {
      let frames: Frame[];
      try {
        frames = this.decoder.push(chunk);
      } catch {
        socket.destroy();
        return;
      }
      for (const frame of frames) this.onFrame(frame);
    });
    socket.on('close', () => {
      this.closed = true;
    });
    socket.on('error', () => undefined);
  }

  send(command: string, payload: Uint8Array = new Uint8Array(0)): boolean {
    return this.write(encodeFrame(this.peer.magic, command, payload));
  }

  /** Raw bytes, framing included (or not). */
  write(bytes: Uint8Array): boolean {
    if (this.closed) return false;
    return this.socket.write(bytes);
  }

  announce(txids: readonly string[]): boolean {
    return this.send('inv', encodeInventory(txids.map((hash) => ({ type: InvType.TX, hash }))));
  }

  /** getdata entries received so far. */
  requested(): InvEntry[] {
    return this.received.filter((f) => f.command === 'getdata').flatMap((f) => decodeInventory(f.payload));
  }

  private onFrame(frame: Frame): void {
    this.received.push(frame);
    const { options } = this.peer;
    if (frame.command === 'version' && options.handshake !== false) {
      this.send('version', encodeVersion({
        version: options.version ?? 70016, services: 1n, timestamp: BigInt(Math.floor(Date.now() / 1000)),
        receiver: { services: 0n, ip: new Uint8Array(16), port: 0 }, sender: { services: 1n, ip: new Uint8Array(16), port: 0 },
        nonce: 99n, userAgent: '/FakePeer:1.0/', startHeight: 0, relay: true,
      }));
      this.send('verack');
    }
    if (frame.command === 'getdata' && options.serve !== false) {
      const missing: InvEntry[] = [];
      for (const entry of decodeInventory(frame.payload)) {
        const raw = this.peer.offered.get(entry.hash);
        if (raw) this.send('tx', raw);
        else missing.push(entry);
      }
      if (missing.length > 0) this.send('notfound', encodeInventory(missing));
    }
  }
}

export class FakePeer {
  readonly magic: Uint8Array;
  readonly connections: FakePeerConnection[] = [];
  /** Raw txs served on getdata, by txid. */
  readonly offered = new Map<string, Uint8Array>();
  private server: net.Server | null = null;
  private waiters: Array<(c: FakePeerConnection) => void> = [];
  port = 0;

  constructor(readonly options: FakePeerOptions) {
    this.magic = magicBytes(options.magic);
  }

  static async listen(options: FakePeerOptions): Promise<FakePeer> {
    const peer = new FakePeer(options);
    peer.server = net.createServer((socket) => {
      const connection = new FakePeerConnection(socket, peer);
      peer.connections.push(connection);
      for (const wake of peer.waiters.splice(0)) wake(connection);
    });
    await new Promise<void>((resolve) => peer.server!.listen(0, options.host ?? '127.0.0.1', resolve));
    peer.port = (peer.server.address() as net.AddressInfo).port;
    return peer;
  }

  get address(): string {
    return `${this.options.host ?? '127.0.0.1'}:${this.port}`;
  }

  offer(txid: string, raw: Uint8Array): void {
    this.offered.set(txid, raw);
  }

  /** The next connection accepted (or the latest one if it is still open and no newer is expected). */
  nextConnection(timeoutMs = 10_000): Promise<FakePeerConnection> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no connection to the fake peer')), timeoutMs);
      this.waiters.push((c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
  }

  async close(): Promise<void> {
    for (const c of this.connections) c.socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
