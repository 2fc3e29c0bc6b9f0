/**
 * HTTP as bytes on a TCP socket, for requests no HTTP client would send (malformed request lines, odd Host headers,
 * bodies shorter than their Content-Length, websocket upgrades with broken targets) and for what comes back: every
 * response's status, whether the server closed the connection, how long it took.
 */
import net from 'node:net';

export interface RawAnswer {
  /** The bytes received (latin1, so any byte survives). */
  readonly text: string;
  /** Status code of the first response; null when none came. */
  readonly status: number | null;
  /** The server ended or reset the connection (false: we gave up waiting, or `done` said enough). */
  readonly closed: boolean;
  readonly ms: number;
}

export interface RawOptions {
  readonly host?: string;
  /** Give up (and destroy the socket) after this long; default 10 s. */
  readonly timeoutMs?: number;
  /** Stop reading once this says the answer is complete (e.g. completeResponse). */
  readonly done?: (text: string) => boolean;
  /** Called once connected, with the socket (to write more later, e.g. frames after an upgrade). */
  readonly onConnect?: (socket: net.Socket) => void;
}

export function statusOf(text: string): number | null {
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
  return match ? Number(match[1]) : null;
}

/** One complete response: a head and a body of its Content-Length, a last chunk, or a 101's head alone. */
export function completeResponse(text: string): boolean {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const head = text.slice(0, end).toLowerCase();
  if (/^http\/1\.[01] (101|1\d\d|204|304)/.test(head)) return true;
  const length = /\r\ncontent-length: *(\d+)/.exec(head);
  if (length) return text.length - end - 4 >= Number(length[1]);
  if (/\r\ntransfer-encoding: *chunked/.test(head)) return text.endsWith('0\r\n\r\n');
  return false;
}

/** Sends `bytes` on a new connection and reads until the server closes it, `done`, or the timeout. */
export function rawExchange(port: number, bytes: Buffer | string, options: RawOptions = {}): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: options.host ?? '127.0.0.1' });
    let text = '';
    let settled = false;
    const finish = (closed: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, status: statusOf(text), closed, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish(false), options.timeoutMs ?? 10_000);
    socket.on('connect', () => {
      socket.write(bytes);
      options.onConnect?.(socket);
    });
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (options.done?.(text)) finish(false);
    });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
  });
}

/** A websocket upgrade request for `target` (the request-target as sent, any bytes). */
export function upgradeRequest(target: string, headers: Readonly<Record<string, string>> = {}): string {
  const all = { Host: '127.0.0.1', Upgrade: 'websocket', Connection: 'Upgrade', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version': '13', ...headers };
  return `GET ${target} HTTP/1.1\r\n${Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
}

/** A client-to-server websocket frame (masked, as clients must send them): FIN set, the given opcode. */
export function clientFrame(payload: Buffer, opcode = 0x1, mask = Buffer.from([0x37, 0xfa, 0x21, 0x3d])): Buffer {
  const length = payload.length;
  const head = length < 126 ? Buffer.from([0x80 | opcode, 0x80 | length]) : length < 65_536 ? Buffer.alloc(4) : Buffer.alloc(10);
  if (length >= 126 && length < 65_536) {
    head[0] = 0x80 | opcode;
    head[1] = 0x80 | 126;
    head.writeUInt16BE(length, 2);
  } else if (length >= 65_536) {
    head[0] = 0x80 | opcode;
    head[1] = 0x80 | 127;
    head.writeBigUInt64BE(BigInt(length), 2);
  }
  const masked = Buffer.from(payload);
  for (let i = 0; i < masked.length; i++) masked[i]! ^= mask[i % 4]!;
  return Buffer.concat([head, mask, masked]);
}

/** Pusher error codes in the server's frames after a 101 (unmasked text frames carrying `pusher:error`). */
export function pusherErrorCodes(text: string): number[] {
  return [...text.matchAll(/"code":(\d{4})/g)].map((m) => Number(m[1]));
}

/** The close code of the server's close frame (opcode 8), if one arrived. */
export function closeCode(text: string): number | null {
  const bytes = Buffer.from(text, 'latin1');
  const head = bytes.indexOf('\r\n\r\n');
  let at = head < 0 ? 0 : head + 4;
  while (at + 2 <= bytes.length) {
    const opcode = bytes[at]! & 0x0f;
    let length = bytes[at + 1]! & 0x7f;
    let start = at + 2;
    if (length === 126) {
      if (start + 2 > bytes.length) return null;
      length = bytes.readUInt16BE(start);
      start += 2;
    } else if (length === 127) {
      if (start + 8 > bytes.length) return null;
      length = Number(bytes.readBigUInt64BE(start));
      start += 8;
    }
    if (opcode === 0x8) return length >= 2 && start + 2 <= bytes.length ? bytes.readUInt16BE(start) : null;
    at = start + length;
  }
  return null;
}
