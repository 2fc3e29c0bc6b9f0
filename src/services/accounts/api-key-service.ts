/**
 * A dashboard user's API keys: list with today's requests, create (the key is shown once), rotate with the
 * configured grace (the old key keeps working that long, then answers 401), revoke at once. Every operation is
 * scoped to the signed-in account: another account's key id is "not found". Changes go through AccountService
 * so this process's key cache forgets them at once (other processes within its 5 s).
 */
import { InvalidArgumentError, NotFoundError } from '../../core/domain/errors.js';
import type { AccountRecord, AccountStore, ApiKeyRecord } from '../../core/store/account-store.js';
import { isActive, type AccountService, type IssuedKey } from './account-service.js';
import type { UsageCounter } from '../../core/limits/usage-counter.js';

/** Active keys per account (also those in a rotation's grace): plenty for environments and services, bounded against abuse. */
export const MAX_ACTIVE_KEYS = 20;
const NAME_MAX = 60;

export type KeyState = 'active' | 'grace' | 'ended';

export interface KeyView {
  readonly key: ApiKeyRecord;
  readonly state: KeyState;
  readonly requestsToday: number;
}

export interface ApiKeyDeps {
  readonly accounts: AccountService;
  readonly store: AccountStore;
  readonly usage: UsageCounter;
  readonly graceSeconds: number;
  /** With mail configured, keys need a verified email (no keys for addresses nobody reads). */
  readonly mailConfigured: boolean;
  /** UNIX seconds. */
  readonly now: () => number;
}

export function keyState(key: ApiKeyRecord, now: number): KeyState {
  if (!isActive(key, now)) return 'ended';
  return key.expiresAt === null ? 'active' : 'grace';
}

export class ApiKeyService {
  constructor(private readonly deps: ApiKeyDeps) {}

  get graceSeconds(): number {
    return this.deps.graceSeconds;
  }

  /** Whether the account may make keys now, and if not why. */
  blocker(account: AccountRecord): string | null {
    if (this.deps.mailConfigured && account.emailVerifiedAt === null) return 'Confirm your email address first: we sent you a link.';
    return null;
  }

  /** Newest first: keys in use and in grace, then ended ones. */
  async list(account: AccountRecord): Promise<KeyView[]> {
    const now = this.deps.now();
    const keys = (await this.deps.store.listKeys(account.id)).reverse();
    const today = await this.deps.usage.readKeys(keys.map((k) => k.id), now);
    const order: Record<KeyState, number> = { active: 0, grace: 1, ended: 2 };
    return keys
      .map((key, i) => ({ key, state: keyState(key, now), requestsToday: today[i]! }))
      .sort((a, b) => order[a.state] - order[b.state]);
  }

  async create(account: AccountRecord, name: string): Promise<IssuedKey> {
    const blocked = this.blocker(account);
    if (blocked) throw new InvalidArgumentError('email', blocked);
    const label = cleanName(name);
    const active = (await this.deps.store.listKeys(account.id)).filter((k) => isActive(k, this.deps.now()));
    if (active.length >= MAX_ACTIVE_KEYS) throw new InvalidArgumentError('key', `An account can have ${MAX_ACTIVE_KEYS} keys in use. Revoke one first.`);
    return this.deps.accounts.issue(account, label);
  }

  /** A new key replaces `keyId`, which keeps working for the grace period. */
  async rotate(account: AccountRecord, keyId: number): Promise<IssuedKey & { replaced: ApiKeyRecord; graceEndsAt: number }> {
    const old = await this.own(account, keyId);
    if (keyState(old, this.deps.now()) !== 'active') throw new InvalidArgumentError('key', 'Only a key in use can be rotated.');
    const issued = await this.deps.accounts.replace(account, old, this.deps.graceSeconds);
    return { ...issued, graceEndsAt: issued.record.createdAt + this.deps.graceSeconds };
  }

  /** Stops the key at once (also one in its grace). */
  async revoke(account: AccountRecord, keyId: number): Promise<ApiKeyRecord> {
    const key = await this.own(account, keyId);
    if (key.revokedAt !== null) throw new InvalidArgumentError('key', 'This key is already revoked.');
    await this.deps.store.revokeKey(key.id, this.deps.now());
    this.deps.accounts.invalidate();
    return key;
  }

  private async own(account: AccountRecord, keyId: number): Promise<ApiKeyRecord> {
    const key = (await this.deps.store.listKeys(account.id)).find((k) => k.id === keyId);
    if (!key) throw new NotFoundError('key', 'No such key.');
    return key;
  }
}

/** Optional; printable text without control characters, at most 60 characters. */
function cleanName(name: string): string | null {
  const text = name.replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
  if (text.length > NAME_MAX) throw new InvalidArgumentError('name', `Key names are at most ${NAME_MAX} characters.`);
  return text === '' ? null : text;
}
