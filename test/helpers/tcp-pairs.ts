import { once } from 'node:events';
import { createServer, Socket, type AddressInfo, type Server } from 'node:net';

/** Loopback TCP pairs from one listening server: `writer` is the accepted side (a server's client socket), `reader` the client. */
export class TcpPairs {
  private readonly open: Socket[] = [];
  private server: Server | null = null;

  async pair(): Promise<{ writer: Socket; reader: Socket }> {
    if (!this.server) {
      this.server = createServer();
      this.server.listen(0, '127.0.0.1');
      await once(this.server, 'listening');
    }
    // One at a time: concurrent `once('connection')` listeners would all receive the first connection.
    const accepted = once(this.server, 'connection') as Promise<[Socket]>;
    const reader = new Socket();
    reader.connect((this.server.address() as AddressInfo).port, '127.0.0.1');
    await once(reader, 'connect');
    const [writer] = await accepted;
    this.open.push(writer, reader);
    return { writer, reader };
  }

  /** Failed assertions leave their pairs open; the server would wait for them. */
  close(): void {
    for (const socket of this.open) socket.destroy();
    this.server?.close();
  }
}
