/**
 * One client connection of the Electrum server, whatever its transport: it takes messages (lines or frames), answers
 * each request with the network's services, keeps the negotiated protocol version and the connection's
 * subscriptions, and enforces the per-connection limits (electrum-limits.ts). Requests start in the order they
 * arrived (so a pipelined server.version applies to what follows); answers may come back in another order, as
 * JSON-RPC allows. A batch is answered as one array.
 */
import type { Logger } from '../../core/infrastructure/logger.js';
import type { ElectrumNetworkServices } from '../../services/electrum/electrum-services.js';
import { argumentsOf, availableIn, type MethodContext, type MethodSpec, type ServerInfo, type SessionApi, type SubscriptionApi } from '../methods/method-spec.js';
import { errorMessage, isCall, parseIncoming, resultMessage, type RpcCall, type RpcRefusal } from '../protocol/json-rpc.js';
import { PROTOCOL_MIN, type ProtocolVersion } from '../protocol/protocol-version.js';
import { ElectrumRpcError, rpcFailure, RPC_CODES } from '../protocol/rpc-errors.js';
import type { AnswerCache } from '../subscriptions/answer-cache.js';
import type { HeaderSubscriptions } from '../subscriptions/header-subscriptions.js';
import type { StatusSubscriber, StatusSubscriptions } from '../subscriptions/status-subscriptions.js';
import { MAX_IN_FLIGHT, MAX_QUEUED_REQUESTS, PAUSE_READING_BYTES, type ElectrumLimits } from './electrum-limits.js';
import { RequestBudget } from './request-budget.js';

/** A connection as the session sees it: the transport frames messages (a line, a WebSocket message). */
export interface Transport {
  readonly kind: 'tcp' | 'ssl' | 'ws' | 'wss';
  readonly remoteAddress: string;
  readonly localAddress: string;
  readonly localPort: number;
  send(message: string): void;
  /** Unread bytes waiting to be written. */
  bufferedBytes(): number;
  pauseReading(): void;
  resumeReading(): void;
  /** Calls back once when everything written so far is out. */
  onDrain(callback: () => void): void;
  close(): void;
}

/** What sessions count for metrics (electrum-metrics.ts). */
export interface SessionStats {
  answered(method: string, ms: number): void;
  failed(method: string, code: number): void;
  refused(requests: number): void;
  slowClosed(): void;
  notified(latencySeconds: number, subscribers: number): void;
  connectionRefused(reason: 'per_ip' | 'total'): void;
}

/** The network server a session belongs to (session-host.ts). */
export interface SessionEnvironment {
  readonly net: ElectrumNetworkServices;
  readonly info: ServerInfo;
  readonly limits: ElectrumLimits;
  readonly methods: ReadonlyMap<string, MethodSpec>;
  readonly status: StatusSubscriptions;
  readonly headers: HeaderSubscriptions;
  readonly answers: AnswerCache;
  readonly stats: SessionStats;
  readonly logger: Logger;
  /** Takes one of the network's subscriptions; false when they are all taken. */
  reserveSubscription(): boolean;
  releaseSubscriptions(n: number): void;
  sessionClosed(session: ElectrumSession): void;
}

type Message = { readonly batch: boolean; readonly items: readonly (RpcCall | RpcRefusal)[] };

export class ElectrumSession implements SessionApi, StatusSubscriber {
  version: ProtocolVersion = PROTOCOL_MIN;
  negotiated = false;
  clientName = '';
  readonly subscriptions = new Set<string>();
  lastActivity = performance.now();
  private closed = false;
  private readonly queue: Message[] = [];
  private queued = 0;
  private inFlight = 0;
  private waiting = false;
  private paused = false;
  private closeAfterWrite = false;
  private readonly budget: RequestBudget;
  private readonly context: MethodContext;

  constructor(readonly transport: Transport, private readonly host: SessionEnvironment) {
    this.budget = new RequestBudget(host.limits.requestsPerSecond);
    const subs: SubscriptionApi = {
      subscribeStatus: (scripthash) => this.subscribe(scripthash),
      unsubscribeStatus: (scripthash) => this.unsubscribe(scripthash),
      subscribeHeaders: () => host.headers.add(this),
    };
    this.context = { session: this, net: host.net, answers: host.answers, server: host.info, subs };
  }

  get transportKind(): string {
    return this.transport.kind;
  }

  get localPort(): number {
    return this.transport.localPort;
  }

  get localHost(): string {
    return this.transport.localAddress;
  }

  setVersion(version: ProtocolVersion, clientName: string): void {
    this.version = version;
    this.negotiated = true;
    this.clientName = clientName;
  }

  /** One message from the client. */
  receive(text: string): void {
    if (this.closed) return;
    this.lastActivity = performance.now();
    const incoming = parseIncoming(text);
    const message: Message = incoming.batch ? { batch: true, items: incoming.items } : { batch: false, items: [incoming.item] };
    if (this.queued + message.items.length > MAX_QUEUED_REQUESTS) {
      // Flooding past what it has waiting: refused without work, the connection kept.
      this.host.stats.refused(message.items.length);
      const refusals = message.items.filter(isAnswered).map((c) => errorMessage(c.id, RPC_CODES.excessiveFlood, 'excessive resource usage: too many requests waiting'));
      if (refusals.length > 0) this.write(message.batch ? `[${refusals.join(',')}]` : refusals[0]!);
      return;
    }
    this.queue.push(message);
    this.queued += message.items.length;
    this.pump();
  }

  notify(message: string): void {
    this.write(message);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.transport.close();
    for (const scripthash of this.subscriptions) this.host.status.unsubscribe(this, scripthash);
    this.host.releaseSubscriptions(this.subscriptions.size);
    this.subscriptions.clear();
    this.host.headers.remove(this);
    this.host.sessionClosed(this);
  }

  private pump(): void {
    while (!this.waiting && !this.closed && this.inFlight < MAX_IN_FLIGHT && this.queue.length > 0) {
      const message = this.queue[0]!;
      const delay = this.budget.take(message.items.length);
      if (delay > 0) {
        // Held back to the rate: the bucket is in debt for these, so they run when the delay is over.
        this.waiting = true;
        setTimeout(() => {
          this.waiting = false;
          this.start(this.queue.shift()!);
          this.pump();
        }, delay).unref();
        return;
      }
      this.start(this.queue.shift()!);
    }
  }

  private start(message: Message): void {
    this.inFlight++;
    void this.answer(message).finally(() => {
      this.inFlight--;
      this.queued -= message.items.length;
      this.pump();
    });
  }

  private async answer(message: Message): Promise<void> {
    if (!message.batch) {
      const out = await this.answerOne(message.items[0]!);
      if (out !== null) this.write(out);
    } else {
      const outs = (await Promise.all(message.items.map((item) => this.answerOne(item)))).filter((o): o is string => o !== null);
      if (outs.length > 0) this.write(`[${outs.join(',')}]`);
    }
    if (this.closeAfterWrite) this.close();
  }

  private async answerOne(item: RpcCall | RpcRefusal): Promise<string | null> {
    if (!isCall(item)) return errorMessage(item.id, item.code, item.message);
    const spec = this.host.methods.get(item.method);
    const started = performance.now();
    try {
      if (!spec || !availableIn(spec, this.version)) throw new ElectrumRpcError(RPC_CODES.methodNotFound, `unknown method "${item.method.slice(0, 60)}"`);
      const json = await spec.handle(this.context, argumentsOf(spec, item.params));
      this.host.stats.answered(spec.name, performance.now() - started);
      return item.notification ? null : resultMessage(item.id, json);
    } catch (error) {
      const failure = rpcFailure(error);
      this.host.stats.failed(spec?.name ?? 'unknown', failure.code);
      if (failure.unexpected) {
        this.host.logger.error('electrum: request failed', { network: this.host.net.id, method: item.method.slice(0, 60), error: String(error), stack: (error as Error).stack });
      }
      if (error instanceof ElectrumRpcError && error.disconnect) this.closeAfterWrite = true;
      return item.notification ? null : errorMessage(item.id, failure.code, failure.message);
    }
  }

  private async subscribe(scripthash: string): Promise<string | null> {
    if (!this.subscriptions.has(scripthash)) {
      if (this.subscriptions.size >= this.host.limits.maxSubscriptionsPerConnection || !this.host.reserveSubscription()) {
        throw new ElectrumRpcError(RPC_CODES.limitExceeded, 'Subscription limit reached');
      }
      this.subscriptions.add(scripthash);
    }
    try {
      return await this.host.status.subscribe(this, scripthash);
    } catch (error) {
      if (this.subscriptions.delete(scripthash)) this.host.releaseSubscriptions(1);
      throw error;
    }
  }

  private unsubscribe(scripthash: string): boolean {
    if (!this.subscriptions.delete(scripthash)) return false;
    this.host.status.unsubscribe(this, scripthash);
    this.host.releaseSubscriptions(1);
    return true;
  }

  private write(message: string): void {
    if (this.closed) return;
    this.transport.send(message);
    const buffered = this.transport.bufferedBytes();
    if (buffered > this.host.limits.maxSendBufferBytes) {
      this.host.stats.slowClosed();
      this.close();
    } else if (buffered > PAUSE_READING_BYTES && !this.paused) {
      // The client is not reading its answers: stop reading its requests until it does.
      this.paused = true;
      this.transport.pauseReading();
      this.transport.onDrain(() => {
        this.paused = false;
        if (!this.closed) this.transport.resumeReading();
      });
    }
  }
}

function isAnswered(item: RpcCall | RpcRefusal): boolean {
  return !isCall(item) || !item.notification;
}
