import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export type ProxyMode = 'forward' | 'hang';

/**
 * A TCP proxy in front of a node whose behaviour the test switches: `forward` passes bytes both ways; `hang` accepts
 * connections and never answers (a hung node: the kernel completes the handshake, nothing comes back). Switching
 * drops the connections of the other mode, as a node's crash or restart would; close() refuses connections.
 */
export class SwitchProxy {
  mode: ProxyMode = 'forward';
  private readonly sockets = new Set<Socket>();
  private constructor(
    private readonly server: Server,
    private readonly targetPort: number,
  ) {}

  static async start(targetPort: number): Promise<SwitchProxy> {
    const server = createServer();
    const proxy = new SwitchProxy(server, targetPort);
    server.on('connection', (client) => proxy.accept(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  set(mode: ProxyMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    this.dropAll();
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    this.track(client);
    client.on('error', () => undefined);
    if (this.mode === 'hang') return; // accepted, read, never answered
    const upstream = createConnection({ port: this.targetPort, host: '127.0.0.1' });
    this.track(upstream);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }

  private dropAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }
}
