/**
 * One network's Electrum server as its sessions see it: its services and method table, its subscriptions, its
 * limits, and the counts kept across its connections (per address, subscriptions in all). Transports hand it their
 * connections (`open`), which it refuses past the connection limits; it closes connections idle too long.
 */
import type { Logger } from '../../core/infrastructure/logger.js';
import type { ElectrumNetworkServices } from '../../services/electrum/electrum-services.js';
import type { MethodSpec, ServerInfo } from '../methods/method-spec.js';
import { AnswerCache } from '../subscriptions/answer-cache.js';
import type { ElectrumChange } from '../subscriptions/electrum-changes.js';
import { HeaderSubscriptions } from '../subscriptions/header-subscriptions.js';
import { StatusSubscriptions } from '../subscriptions/status-subscriptions.js';
import type { ElectrumLimits } from './electrum-limits.js';
import { ElectrumSession, type SessionEnvironment, type SessionStats, type Transport } from './electrum-session.js';

export class SessionHost implements SessionEnvironment {
  readonly status: StatusSubscriptions;
  readonly headers: HeaderSubscriptions;
  readonly answers: AnswerCache;
  readonly sessions = new Set<ElectrumSession>();
  private readonly perIp = new Map<string, number>();
  private subscriptionCount = 0;
  private readonly sweep: NodeJS.Timeout;

  constructor(
    readonly net: ElectrumNetworkServices,
    readonly info: ServerInfo,
    readonly limits: ElectrumLimits,
    readonly methods: ReadonlyMap<string, MethodSpec>,
    readonly stats: SessionStats,
    readonly logger: Logger,
  ) {
    this.status = new StatusSubscriptions(net.scripthashes, logger, { onNotified: (s, n) => stats.notified(s, n) });
    this.headers = new HeaderSubscriptions(net, logger);
    this.answers = new AnswerCache(limits.answerCacheBytes ?? 0);
    this.sweep = setInterval(() => this.closeIdle(), Math.min(30_000, Math.max(100, limits.idleTimeoutMs / 4)));
    this.sweep.unref();
  }

  get subscriptions(): number {
    return this.subscriptionCount;
  }

  /** A new connection: its session, or null (and the transport closed) past the connection limits. */
  open(transport: Transport): ElectrumSession | null {
    const ip = transport.remoteAddress;
    const fromIp = this.perIp.get(ip) ?? 0;
    if (this.sessions.size >= this.limits.maxConnections || (this.limits.maxConnectionsPerIp > 0 && fromIp >= this.limits.maxConnectionsPerIp)) {
      this.stats.connectionRefused(this.sessions.size >= this.limits.maxConnections ? 'total' : 'per_ip');
      transport.close();
      return null;
    }
    this.perIp.set(ip, fromIp + 1);
    const session = new ElectrumSession(transport, this);
    this.sessions.add(session);
    return session;
  }

  sessionClosed(session: ElectrumSession): void {
    if (!this.sessions.delete(session)) return;
    const ip = session.transport.remoteAddress;
    const left = (this.perIp.get(ip) ?? 1) - 1;
    if (left > 0) this.perIp.set(ip, left);
    else this.perIp.delete(ip);
  }

  /** Takes one of the network's subscriptions; false when they are all taken. */
  reserveSubscription(): boolean {
    if (this.subscriptionCount >= this.limits.maxSubscriptions) return false;
    this.subscriptionCount++;
    return true;
  }

  releaseSubscriptions(n: number): void {
    this.subscriptionCount -= n;
  }

  onChange(change: ElectrumChange): void {
    this.answers.onChange(change);
    this.status.onChange(change);
    this.headers.onChange(change);
  }

  closeAll(): void {
    clearInterval(this.sweep);
    for (const session of [...this.sessions]) session.close();
  }

  private closeIdle(): void {
    const before = performance.now() - this.limits.idleTimeoutMs;
    for (const session of [...this.sessions]) if (session.lastActivity < before) session.close();
  }
}
