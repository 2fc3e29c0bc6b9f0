import { InvalidArgumentError, NotFoundError, UnauthorizedError } from '../../core/domain/errors.js';
import type { AccountRecord, AccountStore, ApiKeyRecord, NewAccount, PlanRecord } from '../../core/store/account-store.js';
import { apiKeyPrefix, generateApiKey, hashApiKey, sameHash } from './api-keys.js';

/** Plan periods (billing months) are 30 days; a renewing period rolls forward by whole periods. */
export const PERIOD_SECONDS = 30 * 86_400;
/** How long a verified key (or a refusal) is reused before the store is asked again: the delay of a revocation made by another process. */
export const DEFAULT_KEY_CACHE_MS = 5_000;
/** Bounds the cache: random garbage keys must not grow it without limit. */
const CACHE_LIMIT = 10_000;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}$/;

/** The shape every account email has (one @, no spaces, within the lengths mail systems accept). */
export function isEmail(text: string): boolean {
  return EMAIL.test(text);
}

/** Not revoked and not past a rotation's grace. */
export function isActive(key: ApiKeyRecord, now: number): boolean {
  return key.revokedAt === null && (key.expiresAt === null || key.expiresAt > now);
}
const PLAN_NAME = /^[A-Za-z0-9_.-]{1,40}$/;

export interface IssuedKey {
  readonly account: AccountRecord;
  /** The whole key: shown once, stored only as a hash. */
  readonly key: string;
  readonly record: ApiKeyRecord;
}

/** Limits to set on a plan; undefined keeps the current value. */
export interface PlanLimits {
  readonly maxDailyRequests?: number;
  /** Requests of one account in flight at once across API processes; 0 = no limit. */
  readonly maxConcurrentRequests?: number;
}

/** The account a request authenticated as, with its plan as of now. */
export interface Principal {
  readonly account: AccountRecord;
  readonly keyId: number;
  /** A rotated key's end of grace (checked on every request, also while the verdict is cached). */
  readonly keyExpiresAt: number | null;
}

/** The store's optional account fields (a password already hashed), plus the period in days. */
export interface NewAccountOptions extends Pick<NewAccount, 'isAdmin' | 'passwordHash' | 'emailVerifiedAt' | 'inviteId'> {
  readonly periodDays?: number;
  readonly willRenew?: boolean;
}

/** When the account's current period ends: renewing periods roll forward past `now`, others stay where they ended. */
export function currentPeriodEnd(account: AccountRecord, now: number): number {
  if (!account.willRenew || account.periodEndsAt > now) return account.periodEndsAt;
  const periods = Math.floor((now - account.periodEndsAt) / PERIOD_SECONDS) + 1;
  return account.periodEndsAt + periods * PERIOD_SECONDS;
}

/** Operators' side (plans, accounts, keys) and the per-request key check of v3. */
export class AccountService {
  private readonly cache = new Map<string, { until: number; principal: Principal | null; reason: string }>();

  constructor(
    private readonly store: AccountStore,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
    private readonly cacheMs = DEFAULT_KEY_CACHE_MS,
  ) {}

  /**
   * Creates a plan or changes its limits; a limit not given keeps the plan's current one. A new plan needs its daily
   * limit; its concurrency limit defaults to 0 (none).
   */
  async setPlan(name: string, limits: PlanLimits): Promise<PlanRecord> {
    if (!PLAN_NAME.test(name)) throw new InvalidArgumentError('plan', 'plan names are 1-40 letters, digits, ".", "_" or "-"');
    for (const [field, value] of [['max_daily_requests', limits.maxDailyRequests], ['max_concurrent_requests', limits.maxConcurrentRequests]] as const) {
      if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) throw new InvalidArgumentError(field, `${field.replaceAll('_', ' ')} must be a non-negative integer`);
    }
    const daily = limits.maxDailyRequests ?? (await this.store.getPlan(name))?.maxDailyRequests;
    if (daily === undefined) throw new InvalidArgumentError('max_daily_requests', `plan ${name} does not exist yet: give its max daily requests`);
    this.cache.clear();
    return this.store.setPlan(name, daily, this.now(), limits.maxConcurrentRequests);
  }

  listPlans(): Promise<PlanRecord[]> {
    return this.store.listPlans();
  }

  /** Creates the account and its first key (the operator's CLI). */
  async createAccount(email: string, plan: string, options: NewAccountOptions = {}): Promise<IssuedKey> {
    return this.issue(await this.openAccount(email, plan, { emailVerifiedAt: this.now(), ...options }));
  }

  /** Creates the account without a key (dashboard sign-up: keys are made on the keys page). */
  async openAccount(email: string, plan: string, options: NewAccountOptions = {}): Promise<AccountRecord> {
    if (!isEmail(email)) throw new InvalidArgumentError('email', `not an email address: ${email.slice(0, 80)}`);
    const now = this.now();
    const periodDays = options.periodDays ?? PERIOD_SECONDS / 86_400;
    if (!Number.isSafeInteger(periodDays) || periodDays < 1) throw new InvalidArgumentError('period_days', 'the period must be a whole number of days, at least 1');
    return this.store.createAccount({
      email, plan, createdAt: now, periodEndsAt: now + periodDays * 86_400, willRenew: options.willRenew ?? true,
      isAdmin: options.isAdmin ?? false, passwordHash: options.passwordHash ?? null, emailVerifiedAt: options.emailVerifiedAt ?? null,
      ...(options.inviteId !== undefined ? { inviteId: options.inviteId } : {}),
    });
  }

  /** Forgets every cached key verdict: the next request of each key reads the store (after plan, account or key changes). */
  invalidate(): void {
    this.cache.clear();
  }

  async account(email: string): Promise<AccountRecord> {
    const account = await this.store.findAccountByEmail(email);
    if (!account) throw new NotFoundError('email', `no account with email ${email.slice(0, 80)}`);
    return account;
  }

  listAccounts(): Promise<AccountRecord[]> {
    return this.store.listAccounts();
  }

  keys(accountId: number): Promise<ApiKeyRecord[]> {
    return this.store.listKeys(accountId);
  }

  /** An additional key for the account (e.g. before retiring another one). */
  async issueKey(email: string, name?: string | null): Promise<IssuedKey> {
    return this.issue(await this.account(email), name);
  }

  /**
   * Replaces a key with a new one in one step. With a prefix, that key (which must be the account's); without,
   * the account's only active key (several active keys need the prefix to say which one).
   */
  async rotate(email: string, prefix?: string, graceSeconds = 0): Promise<IssuedKey & { replaced: ApiKeyRecord }> {
    const account = await this.account(email);
    return this.replace(account, await this.activeKey(account, prefix), graceSeconds);
  }

  /**
   * Replaces `old` with a new key of the same name in one step; `old` keeps working for `graceSeconds` (0: stops
   * at once), so clients can switch without an outage.
   */
  async replace(account: AccountRecord, old: ApiKeyRecord, graceSeconds: number): Promise<IssuedKey & { replaced: ApiKeyRecord }> {
    for (let attempt = 0; ; attempt++) {
      const fresh = generateApiKey();
      const now = this.now();
      try {
        const record = await this.store.rotateKey(old.id, { accountId: account.id, prefix: fresh.prefix, hash: fresh.hash, createdAt: now, name: old.name }, now, now + graceSeconds);
        this.cache.clear();
        return { account, key: fresh.key, record, replaced: old };
      } catch (error) {
        // A 48-bit prefix collision is astronomically rare; try a fresh key rather than fail.
        if (!(error instanceof InvalidArgumentError && error.field === 'prefix') || attempt >= 3) throw error;
      }
    }
  }

  /** Revokes one key by prefix; revoked keys answer 401 at once in this process, within the key cache time elsewhere. */
  async revoke(prefix: string): Promise<ApiKeyRecord> {
    const key = await this.store.findKeyByPrefix(prefix);
    if (!key) throw new NotFoundError('prefix', `no key with prefix ${prefix.slice(0, 20)}`);
    if (key.revokedAt !== null) throw new InvalidArgumentError('prefix', `key ${prefix} is already revoked`);
    await this.store.revokeKey(key.id, this.now());
    this.cache.clear();
    return (await this.store.findKeyByPrefix(prefix))!;
  }

  /** Revokes every active key of the account; returns them. */
  async revokeAll(email: string): Promise<ApiKeyRecord[]> {
    const account = await this.account(email);
    const active = (await this.store.listKeys(account.id)).filter((k) => isActive(k, this.now()));
    for (const key of active) await this.store.revokeKey(key.id, this.now());
    this.cache.clear();
    return active;
  }

  /**
   * The per-request check. Throws UnauthorizedError. Verified keys (and refusals) are cached for the key cache
   * time under the key text itself, so a hit costs one map lookup and no hashing or store read.
   */
  async authenticate(key: string | undefined): Promise<Principal> {
    const cached = this.cached(key);
    if (cached) return cached;
    const text = key!;
    const entry = { until: Date.now() + this.cacheMs, ...(await this.verify(text, hashApiKey(text))) };
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(text, entry);
    return this.admit(entry);
  }

  /** Synchronous fast path: the principal when the key's verdict is cached (throws a cached refusal), else null. */
  cached(key: string | undefined): Principal | null {
    if (key === undefined || key === '') throw new UnauthorizedError('missing API key: send your key in the API-KEY header');
    const entry = this.cache.get(key);
    return entry && entry.until > Date.now() ? this.admit(entry) : null;
  }

  private admit(entry: { principal: Principal | null; reason: string }): Principal {
    if (!entry.principal) throw new UnauthorizedError(entry.reason);
    const { account, keyExpiresAt } = entry.principal;
    const now = this.now();
    if (keyExpiresAt !== null && keyExpiresAt <= now) throw new UnauthorizedError('this API key was replaced and its grace period has ended');
    if (currentPeriodEnd(account, now) <= now) {
      throw new UnauthorizedError(`the plan period of this account ended at ${new Date(account.periodEndsAt * 1000).toISOString()} and does not renew`);
    }
    return entry.principal;
  }

  private async verify(key: string, hash: Uint8Array): Promise<{ principal: Principal | null; reason: string }> {
    const prefix = apiKeyPrefix(key);
    const record = prefix === null ? null : await this.store.findKeyByPrefix(prefix);
    // Compare hashes in constant time even though the prefix matched: the prefix is public, the rest is the secret.
    if (!record || !sameHash(record.hash, hash)) return { principal: null, reason: 'invalid API key' };
    if (record.revokedAt !== null) return { principal: null, reason: 'this API key was revoked' };
    const account = await this.store.getAccount(record.accountId);
    if (!account) return { principal: null, reason: 'invalid API key' };
    if (account.disabledAt !== null) return { principal: null, reason: 'this account is disabled; ask the operator' };
    return { principal: { account, keyId: record.id, keyExpiresAt: record.expiresAt }, reason: '' };
  }

  private async activeKey(account: AccountRecord, prefix: string | undefined): Promise<ApiKeyRecord> {
    const active = (await this.store.listKeys(account.id)).filter((k) => isActive(k, this.now()) && k.expiresAt === null);
    if (prefix !== undefined) {
      const key = active.find((k) => k.prefix === prefix);
      if (!key) throw new NotFoundError('prefix', `${account.email} has no active key with prefix ${prefix.slice(0, 20)}`);
      return key;
    }
    if (active.length !== 1) {
      throw new InvalidArgumentError('prefix', `${account.email} has ${active.length} active keys; name the one to rotate with --prefix`);
    }
    return active[0]!;
  }

  /** A new key for the account (its first, or one more). */
  async issue(account: AccountRecord, name?: string | null): Promise<IssuedKey> {
    for (let attempt = 0; ; attempt++) {
      const fresh = generateApiKey();
      try {
        const record = await this.store.addKey({ accountId: account.id, prefix: fresh.prefix, hash: fresh.hash, createdAt: this.now(), name: name ?? null });
        return { account, key: fresh.key, record };
      } catch (error) {
        if (!(error instanceof InvalidArgumentError && error.field === 'prefix') || attempt >= 3) throw error;
      }
    }
  }
}
