/**
 * Brute-force limits of the dashboard: each rule allows `max` attempts per subject (an IP's network, an email)
 * in a fixed window. check() refuses once a subject is at its limit, before any password is hashed; record()
 * counts an attempt. Subjects are hashed (no emails in Redis keys), and unknown emails are limited exactly like
 * known ones, so the limit never tells whether an account exists.
 */
import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { AttemptCounter } from '../../core/limits/attempt-counter.js';
import { TooManyAttemptsError } from '../../core/domain/errors.js';

export interface LimitRule {
  readonly name: string;
  readonly max: number;
  readonly windowSeconds: number;
}

/** A rule and the subject it counts for. */
export type Limited = readonly [rule: LimitRule, subject: string];

export class AttemptLimiter {
  constructor(private readonly counter: AttemptCounter) {}

  /** Throws TooManyAttemptsError (with the longest wait) when any subject is at its rule's limit. */
  async check(limits: readonly Limited[]): Promise<void> {
    const counts = await Promise.all(limits.map(([rule, subject]) => this.counter.peek(key(rule, subject))));
    const waits = counts.filter((c, i) => c.count >= limits[i]![0].max).map((c) => c.resetIn);
    if (waits.length > 0) throw new TooManyAttemptsError(Math.max(...waits));
  }

  /** Counts one attempt for every subject. */
  async record(limits: readonly Limited[]): Promise<void> {
    await Promise.all(limits.map(([rule, subject]) => this.counter.add(key(rule, subject), rule.windowSeconds)));
  }

  /** check, then count this attempt whatever its outcome (for actions limited by number, not by failure). */
  async take(limits: readonly Limited[]): Promise<void> {
    await this.check(limits);
    await this.record(limits);
  }

  async clear(limit: Limited): Promise<void> {
    await this.counter.clear(key(limit[0], limit[1]));
  }
}

function key(rule: LimitRule, subject: string): string {
  return `${rule.name}:${createHash('sha256').update(subject, 'utf8').digest('base64url').slice(0, 22)}`;
}

/** The email as a limit subject: one per mailbox whatever the spelling. */
export function emailSubject(email: string): string {
  return `email:${email.trim().toLowerCase()}`;
}

/**
 * The client's network as a limit subject: an IPv4 address, or an IPv6 address's /64 (one subscriber usually has a
 * whole /64, so per-address limits would not hold them).
 */
export function ipSubject(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return `ip:${mapped[1]}`;
  if (isIPv4(ip) || !isIPv6(ip)) return `ip:${ip}`;
  return `ip:${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
}

function expandIPv6(ip: string): string[] {
  const [head, tail] = ip.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((part) => part.replace(/%.*$/, '').toLowerCase().replace(/^0+(?=.)/, ''));
}
