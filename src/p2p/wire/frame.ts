/**
 * Message framing of the Bitcoin P2P protocol as Bitcoin, Litecoin and Dogecoin all use it (Core's CMessageHeader):
 *
 *   4 bytes  magic (the network's message start, NetworkParams.p2pMagic)
 *  12 bytes  command, printable ASCII padded with NUL bytes
 *   4 bytes  payload length, little-endian
 *   4 bytes  checksum: the first 4 bytes of sha256d(payload)
 *   …        payload
 *
 * A peer that breaks any of these is not worth resynchronising with (there is no frame marker to find the next
 * message by): the decoder throws a ProtocolViolation and the connection is dropped.
 */
import { sha256d } from '../../chains/hash.js';

export const HEADER_SIZE = 24;
/** Core's MAX_PROTOCOL_MESSAGE_LENGTH (4,000,000 bytes): no honest peer sends a larger message. */
export const MAX_PAYLOAD = 4_000_000;
const COMMAND_SIZE = 12;

/** Why a peer is dropped: its bytes are not the protocol (a short stable reason for logs and tests). */
export class ProtocolViolation extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ProtocolViolation';
  }
}

export interface Frame {
  readonly command: string;
  readonly payload: Uint8Array;
}

export function magicBytes(hex: string): Uint8Array {
  if (!/^[0-9a-f]{8}$/.test(hex)) throw new RangeError(`P2P magic must be 4 bytes of hex, got "${hex}"`);
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

export function checksumOf(payload: Uint8Array): Uint8Array {
  return sha256d(payload).subarray(0, 4);
}

export function encodeFrame(magic: Uint8Array, command: string, payload: Uint8Array): Uint8Array {
  if (command.length === 0 || command.length > COMMAND_SIZE || !/^[\x21-\x7e]+$/.test(command)) throw new RangeError(`bad P2P command "${command}"`);
  const out = Buffer.alloc(HEADER_SIZE + payload.length);
  out.set(magic, 0);
  out.write(command, 4, 'ascii');
  out.writeUInt32LE(payload.length, 16);
  out.set(checksumOf(payload), 20);
  out.set(payload, HEADER_SIZE);
  return out;
}

/** The command field: printable ASCII, then only NUL bytes (Core's IsCommandValid). */
function readCommand(bytes: Uint8Array, at: number): string {
  let end = at;
  while (end < at + COMMAND_SIZE && bytes[end] !== 0) {
    const c = bytes[end]!;
    if (c < 0x20 || c > 0x7e) throw new ProtocolViolation('command is not printable ASCII');
    end++;
  }
  if (end === at) throw new ProtocolViolation('empty command');
  for (let i = end; i < at + COMMAND_SIZE; i++) if (bytes[i] !== 0) throw new ProtocolViolation('command not NUL-padded');
  return Buffer.from(bytes.buffer, bytes.byteOffset + at, end - at).toString('ascii');
}

/**
 * Splits a TCP byte stream into frames. Memory stays bounded by one header plus `maxPayload`: a length above it is
 * refused as soon as its header arrives, before any payload is buffered. Chunks are joined only once a whole frame
 * is there, so a large message arriving in many small chunks is copied once, not once per chunk.
 */
export class FrameDecoder {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly magic: Uint8Array,
    private readonly maxPayload = MAX_PAYLOAD,
  ) {}

  /** Bytes received but not yet part of a whole frame. */
  get buffered(): number {
    return this.size;
  }

  /** Every whole frame the new bytes complete, in order; throws ProtocolViolation on the first bad one. */
  push(chunk: Uint8Array): Frame[] {
    if (chunk.length > 0) {
      this.chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      this.size += chunk.length;
    }
    const frames: Frame[] = [];
    while (this.size >= HEADER_SIZE) {
      const head = this.front(HEADER_SIZE);
      for (let i = 0; i < 4; i++) if (head[i] !== this.magic[i]) throw new ProtocolViolation('wrong magic');
      const command = readCommand(head, 4);
      const length = head.readUInt32LE(16);
      if (length > this.maxPayload) throw new ProtocolViolation(`oversized message (${command}, ${length} bytes)`);
      if (this.size < HEADER_SIZE + length) break;
      const whole = this.front(HEADER_SIZE + length);
      // A copy: the frame outlives this chunk (a tx is kept), and a view would pin the whole receive buffer.
      const payload = Uint8Array.prototype.slice.call(whole, HEADER_SIZE, HEADER_SIZE + length);
      const sum = checksumOf(payload);
      for (let i = 0; i < 4; i++) if (sum[i] !== whole[20 + i]) throw new ProtocolViolation(`bad checksum (${command})`);
      this.consume(HEADER_SIZE + length);
      frames.push({ command, payload });
    }
    return frames;
  }

  /** The first n buffered bytes as one contiguous buffer (joining chunks only when they straddle n). */
  private front(n: number): Buffer {
    if (this.chunks[0]!.length < n) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0]!;
  }

  private consume(n: number): void {
    const first = this.chunks[0]!;
    if (first.length === n) this.chunks.shift();
    else this.chunks[0] = first.subarray(n);
    this.size -= n;
    // A mostly consumed large chunk would keep its whole allocation alive: copy the little that is left.
    if (this.chunks.length > 0 && this.chunks[0]!.buffer.byteLength > 4 * this.chunks[0]!.length + 65_536) this.chunks[0] = Buffer.from(this.chunks[0]!);
  }
}
