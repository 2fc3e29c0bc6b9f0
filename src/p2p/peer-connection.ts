/**
 * One outbound P2P connection: TCP, the version/verack handshake, ping/pong, and the few messages a listener
 * needs (inv, getdata, tx, notfound, feefilter). Everything else a peer sends (addr, headers, sendheaders,
 * sendcmpct, wtxidrelay, getheaders, …) is read and ignored, as Core ignores messages it does not need. We never
 * send `wtxidrelay`, so peers announce by txid; we never announce or serve anything (services NODE_NONE).
 *
 * A peer is dropped at the first violation (bad framing, malformed payload of a message we read, a flood of
 * inventory or bytes, a stalled handshake or ping): a listener loses nothing by leaving and gains bounded memory.
 */
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import type { PeerSummary, Transaction } from '../core/index.js';
import { parseTransaction } from '../chains/parsing.js';
import { encodeFrame, FrameDecoder, ProtocolViolation, type Frame } from './wire/frame.js';
import {
  decodeFeeFilter, decodeInventory, decodeNonce, decodeVersion, encodeInventory, encodeNonce, encodeVersion,
  InvType, ipBytes, OUR_SERVICES, type InvEntry,
} from './wire/messages.js';
import type { ConnectionOptions } from './connection-options.js';
import { RateGuard } from './rate-guard.js';

/** BIP37's fRelay field exists from 70001; older peers cannot be asked for transaction announcements. */
const MIN_PEER_VERSION = 70001;
/** How often a ready connection checks its ping and its requests. */
const HOUSEKEEPING_MS = 1_000;
/** Core's MAX_GETDATA_SZ. */
const MAX_GETDATA = 1000;

export interface ConnectionEvents {
  ready(connection: PeerConnection): void;
  /** `ready` tells whether the handshake had completed. */
  closed(connection: PeerConnection, reason: string, ready: boolean, misbehaved: boolean): void;
  announced(connection: PeerConnection, txids: readonly string[]): void;
  tx(connection: PeerConnection, tx: Transaction): void;
  notFound(connection: PeerConnection, txids: readonly string[]): void;
}

type State = 'connecting' | 'handshake' | 'ready' | 'closed';

export class PeerConnection {
  private socket: net.Socket | null = null;
  private state: State = 'connecting';
  private readonly decoder: FrameDecoder;
  private readonly invGuard: RateGuard;
  private readonly byteGuard: RateGuard;
  private readonly inFlight = new Map<string, number>();
  /** At most one timer per purpose, so a long-lived connection holds a fixed number of them. */
  private readonly timers: { connect?: NodeJS.Timeout; handshake?: NodeJS.Timeout; tick?: NodeJS.Timeout } = {};
  private peerVersion: { version: number; userAgent: string } | null = null;
  private gotVerack = false;
  private connectedAtMs = 0;
  private feeFilter = 0n;
  private pingNonce: bigint | null = null;
  private pingSentMs = 0;

  constructor(
    private readonly options: ConnectionOptions,
    private readonly events: ConnectionEvents,
  ) {
    this.decoder = new FrameDecoder(options.magic);
    this.invGuard = new RateGuard(options.limits.invPerSecond, options.limits.invBurst, options.nowMs());
    this.byteGuard = new RateGuard(options.limits.bytesPerSecond, options.limits.bytesBurst, options.nowMs());
  }

  get id(): number {
    return this.options.id;
  }

  get address(): string {
    return this.options.host.includes(':') ? `[${this.options.host}]:${this.options.port}` : `${this.options.host}:${this.options.port}`;
  }

  private isClosed(): boolean {
    return this.state === 'closed';
  }

  get isReady(): boolean {
    return this.state === 'ready';
  }

  /** Bytes buffered towards an incomplete message (bounded by the decoder's maximum). */
  get bufferedBytes(): number {
    return this.decoder.buffered;
  }

  summary(): PeerSummary | null {
    if (!this.peerVersion) return null;
    return {
      id: this.id, address: this.address, configured: this.options.configured, userAgent: this.peerVersion.userAgent,
      protocolVersion: this.peerVersion.version, connectedAtMs: this.connectedAtMs, feeFilter: this.feeFilter,
    };
  }

  connect(): void {
    const { host, port, limits } = this.options;
    const socket = net.connect({ host, port, noDelay: true });
    this.socket = socket;
    this.timers.connect = this.later(limits.connectTimeoutMs, () => this.state === 'connecting' && this.close('connect timeout'));
    socket.on('connect', () => {
      this.state = 'handshake';
      this.timers.handshake = this.later(limits.handshakeTimeoutMs, () => this.state === 'handshake' && this.close('handshake timeout', true));
      this.send('version', encodeVersion({
        version: this.options.protocolVersion, services: OUR_SERVICES, timestamp: BigInt(Math.floor(this.options.nowMs() / 1000)),
        receiver: { services: 0n, ip: ipBytes(host), port }, sender: { services: OUR_SERVICES, ip: new Uint8Array(16), port: 0 },
        nonce: randomBytes(8).readBigUInt64LE(), userAgent: this.options.userAgent, startHeight: this.options.startHeight(), relay: true,
      }));
    });
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (err) => this.close(`socket error: ${err.message}`));
    socket.on('close', () => this.close('connection closed by peer'));
  }

  /** Asks for announced transactions; false when this peer cannot take more requests now. */
  request(txids: readonly string[]): boolean {
    if (this.state !== 'ready' || this.inFlight.size + txids.length > this.options.limits.maxInFlight) return false;
    const now = this.options.nowMs();
    const type = this.options.witness ? InvType.WITNESS_TX : InvType.TX;
    const fresh = txids.filter((txid) => !this.inFlight.has(txid));
    for (const txid of fresh) this.inFlight.set(txid, now);
    for (let i = 0; i < fresh.length; i += MAX_GETDATA) {
      this.send('getdata', encodeInventory(fresh.slice(i, i + MAX_GETDATA).map((hash): InvEntry => ({ type, hash }))));
    }
    return true;
  }

  close(reason: string, misbehaved = false): void {
    if (this.state === 'closed') return;
    const wasReady = this.state === 'ready';
    this.state = 'closed';
    for (const timer of Object.values(this.timers)) clearTimeout(timer);
    this.socket?.destroy();
    this.inFlight.clear();
    this.events.closed(this, reason, wasReady, misbehaved);
  }

  private later(ms: number, fn: () => void): NodeJS.Timeout {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return timer;
  }

  private send(command: string, payload: Uint8Array): void {
    const socket = this.socket;
    if (!socket || this.state === 'closed') return;
    socket.write(encodeFrame(this.options.magic, command, payload));
    if (socket.writableLength > this.options.limits.maxSendBacklog) this.close('peer does not read what we send', true);
  }

  private onData(chunk: Buffer): void {
    if (this.state === 'closed') return;
    if (!this.byteGuard.spend(chunk.length, this.options.nowMs())) return this.close('byte flood', true);
    let frames: Frame[];
    try {
      frames = this.decoder.push(chunk);
    } catch (err) {
      return this.close(err instanceof ProtocolViolation ? err.reason : 'undecodable stream', true);
    }
    for (const frame of frames) {
      // A handler may have closed the connection (a violation, a failed send): the rest is not read.
      if (this.isClosed()) return;
      try {
        this.onFrame(frame);
      } catch (err) {
        if (err instanceof ProtocolViolation) return this.close(err.reason, true);
        return this.close(`malformed ${frame.command}: ${err instanceof Error ? err.message : String(err)}`, true);
      }
    }
  }

  private onFrame({ command, payload }: Frame): void {
    if (!this.peerVersion && command !== 'version') throw new ProtocolViolation(`${command} before version`);
    switch (command) {
      case 'version':
        return this.onVersion(payload);
      case 'verack':
        if (this.gotVerack) throw new ProtocolViolation('duplicate verack');
        this.gotVerack = true;
        return this.onHandshakeDone();
      case 'ping':
        return this.send('pong', encodeNonce(decodeNonce(payload)));
      case 'pong':
        if (decodeNonce(payload) === this.pingNonce) this.pingNonce = null;
        return;
      case 'feefilter':
        this.feeFilter = decodeFeeFilter(payload);
        return;
      case 'inv':
        return this.onInv(decodeInventory(payload));
      case 'notfound':
        return this.onNotFound(decodeInventory(payload));
      case 'tx':
        return this.onTx(payload);
      default:
        // addr, addrv2, sendaddrv2, sendheaders, sendcmpct, wtxidrelay, getheaders, headers, getaddr, reject, …:
        // nothing a listener needs; ignoring them is what Core does with messages it has no use for.
        return;
    }
  }

  private onVersion(payload: Uint8Array): void {
    if (this.peerVersion) throw new ProtocolViolation('duplicate version');
    const version = decodeVersion(payload);
    if (version.version < MIN_PEER_VERSION) throw new ProtocolViolation(`peer protocol ${version.version} is older than ${MIN_PEER_VERSION}`);
    this.peerVersion = { version: version.version, userAgent: version.userAgent };
    this.send('verack', new Uint8Array(0));
  }

  private onHandshakeDone(): void {
    if (this.state !== 'handshake') return;
    this.state = 'ready';
    this.connectedAtMs = this.options.nowMs();
    this.pingSentMs = this.connectedAtMs;
    this.timers.tick = this.later(HOUSEKEEPING_MS, () => this.housekeeping());
    this.events.ready(this);
  }

  /** Pings on schedule, drops a peer that stopped answering them, gives up requests it never answered. */
  private housekeeping(): void {
    if (this.state !== 'ready') return;
    const now = this.options.nowMs();
    const { pingIntervalMs, pongTimeoutMs } = this.options.limits;
    if (this.pingNonce !== null && now - this.pingSentMs > pongTimeoutMs) return this.close('ping timeout', true);
    if (this.pingNonce === null && now - this.pingSentMs >= pingIntervalMs) {
      this.pingNonce = randomBytes(8).readBigUInt64LE();
      this.pingSentMs = now;
      this.send('ping', encodeNonce(this.pingNonce));
    }
    this.expireRequests(now);
    this.timers.tick = this.later(HOUSEKEEPING_MS, () => this.housekeeping());
  }

  private onInv(entries: readonly InvEntry[]): void {
    if (!this.invGuard.spend(entries.length, this.options.nowMs())) throw new ProtocolViolation('inv flood');
    if (this.state !== 'ready') return;
    const txids: string[] = [];
    for (const e of entries) if (e.type === InvType.TX || e.type === InvType.WITNESS_TX) txids.push(e.hash);
    if (txids.length > 0) this.events.announced(this, txids);
  }

  private onNotFound(entries: readonly InvEntry[]): void {
    const txids = entries.filter((e) => this.inFlight.delete(e.hash)).map((e) => e.hash);
    if (txids.length > 0) this.events.notFound(this, txids);
  }

  private onTx(payload: Uint8Array): void {
    // Parse errors throw and drop the peer: a relayed tx that our parser cannot read is garbage.
    const tx = parseTransaction(payload, { mweb: this.options.mweb });
    // Unrequested txs are ignored (Core relays only on request; a stray one is not worth a judgement).
    if (this.inFlight.delete(tx.txid)) this.events.tx(this, tx);
  }

  private expireRequests(now: number): void {
    const expired: string[] = [];
    for (const [txid, at] of this.inFlight) if (now - at > this.options.limits.requestTimeoutMs) expired.push(txid);
    for (const txid of expired) this.inFlight.delete(txid);
    if (expired.length > 0) this.events.notFound(this, expired);
  }
}
