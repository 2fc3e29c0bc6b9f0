/**
 * Payloads of the messages our listener reads or writes (Core's protocol.h, net_processing.cpp; Dogecoin Core 1.14
 * uses the same encodings at protocol 70015). Each decoder reads exactly its payload and throws ParseError on
 * anything else; the connection turns that into a ProtocolViolation.
 */
import { ByteReader, ByteWriter } from '../../chains/parsing.js';
import { fromDisplayHex } from '../../chains/hash.js';
import { ParseError } from '../../core/domain/errors.js';

/** Core's MAX_INV_SZ: an inv, getdata or notfound with more entries is misbehaviour. */
export const MAX_INV_ENTRIES = 50_000;
/** Core's MAX_SUBVERSION_LENGTH. */
const MAX_USER_AGENT = 256;

/** Inventory types (protocol.h GetDataMsg); MSG_WTX only appears if `wtxidrelay` was negotiated, which we never do. */
export const InvType = {
  TX: 1,
  BLOCK: 2,
  FILTERED_BLOCK: 3,
  CMPCT_BLOCK: 4,
  WTX: 5,
  WITNESS_TX: 0x40000001,
  WITNESS_BLOCK: 0x40000002,
  /** Litecoin: a tx with its MWEB body (MSG_WITNESS_TX | MSG_MWEB_FLAG). */
  MWEB_TX: 0x60000001,
} as const;

export interface InvEntry {
  readonly type: number;
  /** Display-order hex (as RPC shows txids). */
  readonly hash: string;
}

/** NODE_NONE: we serve nothing (no blocks, no relay of others' transactions). */
export const OUR_SERVICES = 0n;

export interface NetAddress {
  readonly services: bigint;
  /** 16 bytes: IPv6, or IPv4-mapped (::ffff:a.b.c.d). */
  readonly ip: Uint8Array;
  readonly port: number;
}

export interface VersionMessage {
  readonly version: number;
  readonly services: bigint;
  readonly timestamp: bigint;
  readonly receiver: NetAddress;
  readonly sender: NetAddress;
  readonly nonce: bigint;
  readonly userAgent: string;
  readonly startHeight: number;
  /** BIP37 fRelay: false asks the peer not to announce transactions (we always send true). Absent before 70001: true. */
  readonly relay: boolean;
}

function writeAddress(w: ByteWriter, a: NetAddress): void {
  w.u64(a.services).bytes(a.ip);
  w.u8(a.port >> 8).u8(a.port & 0xff); // the port is big-endian (network order), unlike everything else
}

function readAddress(r: ByteReader): NetAddress {
  const services = r.u64();
  const ip = Uint8Array.from(r.slice(16));
  const port = (r.u8() << 8) | r.u8();
  return { services, ip, port };
}

/** An IPv4 or IPv6 literal as the 16 bytes of a net address; anything else (a host name) as ::. */
export function ipBytes(host: string): Uint8Array {
  const out = new Uint8Array(16);
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) {
    out[10] = 0xff;
    out[11] = 0xff;
    for (let i = 0; i < 4; i++) out[12 + i] = Number(v4[i + 1]) & 0xff;
    return out;
  }
  if (host.includes(':')) {
    const [head = '', tail = ''] = host.split('::');
    const groups = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16) & 0xffff));
    const front = groups(head);
    const back = host.includes('::') ? groups(tail) : [];
    const all = host.includes('::') ? [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back] : front;
    all.slice(0, 8).forEach((g, i) => {
      out[2 * i] = g >> 8;
      out[2 * i + 1] = g & 0xff;
    });
  }
  return out;
}

export function encodeVersion(m: VersionMessage): Uint8Array {
  const w = new ByteWriter(128);
  w.i32(m.version).u64(m.services).i64(m.timestamp);
  writeAddress(w, m.receiver);
  writeAddress(w, m.sender);
  w.u64(m.nonce);
  w.varBytes(Buffer.from(m.userAgent, 'utf8'));
  w.i32(m.startHeight);
  w.u8(m.relay ? 1 : 0);
  return w.finish();
}

export function decodeVersion(payload: Uint8Array): VersionMessage {
  const r = new ByteReader(payload);
  const version = r.i32();
  const services = r.u64();
  const timestamp = r.i64();
  const receiver = readAddress(r);
  // Fields after addr_recv arrived with protocol 106; every peer we talk to (>= 70001) sends them all.
  const sender = readAddress(r);
  const nonce = r.u64();
  const agentLength = r.compactSize(MAX_USER_AGENT);
  const userAgent = Buffer.from(r.slice(agentLength)).toString('utf8');
  const startHeight = r.i32();
  const relay = r.remaining > 0 ? r.u8() !== 0 : true;
  // Core ignores bytes after fRelay (room for extensions); so do we.
  return { version, services, timestamp, receiver, sender, nonce, userAgent, startHeight, relay };
}

/** inv, getdata and notfound share this payload. */
export function encodeInventory(entries: readonly InvEntry[]): Uint8Array {
  if (entries.length > MAX_INV_ENTRIES) throw new RangeError(`at most ${MAX_INV_ENTRIES} inventory entries per message`);
  const w = new ByteWriter(3 + entries.length * 36);
  w.compactSize(entries.length);
  for (const e of entries) w.u32(e.type).bytes(fromDisplayHex(e.hash));
  return w.finish();
}

export function decodeInventory(payload: Uint8Array): InvEntry[] {
  const r = new ByteReader(payload);
  const n = r.count(36);
  if (n > MAX_INV_ENTRIES) throw new ParseError(`inventory of ${n} entries (max ${MAX_INV_ENTRIES})`, 0);
  const entries: InvEntry[] = new Array<InvEntry>(n);
  for (let i = 0; i < n; i++) entries[i] = { type: r.u32(), hash: r.hashHex() };
  r.assertEnd('inventory');
  return entries;
}

/** ping and pong: one 64-bit nonce. */
export function encodeNonce(nonce: bigint): Uint8Array {
  return new ByteWriter(8).u64(nonce).finish();
}

export function decodeNonce(payload: Uint8Array): bigint {
  const r = new ByteReader(payload);
  const nonce = r.u64();
  r.assertEnd('nonce');
  return nonce;
}

/** feefilter (BIP133): the peer's minimum fee rate for announcements, base units per 1000 bytes. */
export function encodeFeeFilter(perKb: bigint): Uint8Array {
  return new ByteWriter(8).i64(perKb).finish();
}

export function decodeFeeFilter(payload: Uint8Array): bigint {
  const r = new ByteReader(payload);
  const rate = r.i64();
  r.assertEnd('feefilter');
  if (rate < 0n) throw new ParseError('negative feefilter', 0);
  return rate;
}
