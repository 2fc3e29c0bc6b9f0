/** v3 accounts, plans, API keys (hashes only) and per-day usage counts, as the store keeps them. */

/** A v3 plan: how many requests an account may make per UTC day, and how many at once. */
export interface PlanRecord {
  readonly name: string;
  readonly maxDailyRequests: number;
  /** Requests of one account in flight at once, across API processes; 0 = no limit. */
  readonly maxConcurrentRequests: number;
  readonly updatedAt: number;
}

export interface AccountRecord {
  readonly id: number;
  /** Stored lower-cased: one account per mailbox whatever the spelling. */
  readonly email: string;
  readonly plan: PlanRecord;
  readonly createdAt: number;
  /** UNIX seconds; the service rolls renewing periods forward when they pass. */
  readonly periodEndsAt: number;
  readonly willRenew: boolean;
  /** Last dashboard access (sign-in, refreshed on visits); null until one happens. */
  readonly lastLoginAt: number | null;
  /** Administrators see the dashboard's admin pages. */
  readonly isAdmin: boolean;
  /** Set while an administrator has disabled the account: its keys and its sign-ins are refused. */
  readonly disabledAt: number | null;
  /** When the address was confirmed (a verification link, or made by the operator); null until then. */
  readonly emailVerifiedAt: number | null;
  /** A second factor is on (its secret is only in AuthStore credentials). */
  readonly totpEnabled: boolean;
}

export interface NewAccount {
  readonly email: string;
  readonly plan: string;
  readonly createdAt: number;
  readonly periodEndsAt: number;
  readonly willRenew: boolean;
  readonly isAdmin?: boolean;
  readonly emailVerifiedAt?: number | null;
  readonly passwordHash?: string | null;
  /** Sign-up through an invite: the invite is marked used by this account in the same transaction. */
  readonly inviteId?: number;
}

/** Fields an account update may change; absent ones stay. */
export interface AccountChanges {
  readonly email?: string;
  readonly plan?: string;
  readonly isAdmin?: boolean;
  readonly disabledAt?: number | null;
  readonly emailVerifiedAt?: number | null;
  readonly lastLoginAt?: number;
}

/** An API key as stored: never the key itself, only its prefix (for operators) and its SHA-256. */
export interface ApiKeyRecord {
  readonly id: number;
  readonly accountId: number;
  readonly prefix: string;
  readonly hash: Uint8Array;
  readonly createdAt: number;
  readonly revokedAt: number | null;
  /** The owner's label for the key; null when none was given. */
  readonly name: string | null;
  /** Within the usage flush interval (about a second). */
  readonly lastUsedAt: number | null;
  /** A rotated key's end of grace: it answers 401 from then on. */
  readonly expiresAt: number | null;
}

export interface NewApiKey {
  readonly accountId: number;
  readonly prefix: string;
  readonly hash: Uint8Array;
  readonly createdAt: number;
  readonly name?: string | null;
}

/** Requests to add to one account's count of one UTC day (`yyyy-mm-dd`). */
export interface UsageIncrement {
  readonly accountId: number;
  readonly day: string;
  readonly count: number;
}

/** Requests to add to one key's count of one UTC day. */
export interface KeyUsageIncrement {
  readonly keyId: number;
  readonly day: string;
  readonly count: number;
}

/** One account's count of one UTC day. */
export interface UsageRow {
  readonly accountId: number;
  readonly day: string;
  readonly count: number;
}

/**
 * v3 accounts. Emails are unique (case-insensitive), key prefixes unique, usage counts only ever grow by
 * the increments given (so several API processes can each add their own share).
 */
export interface AccountStore {
  /**
   * Creates the plan or changes its limits. `maxConcurrentRequests` undefined keeps an existing plan's value
   * (0, no limit, for a new plan). Resolves the plan as stored.
   */
  setPlan(name: string, maxDailyRequests: number, at: number, maxConcurrentRequests?: number): Promise<PlanRecord>;
  getPlan(name: string): Promise<PlanRecord | null>;
  listPlans(): Promise<PlanRecord[]>;
  /**
   * Rejects with InvalidArgumentError (field email / plan / invite) on a taken email, an unknown plan, or an
   * invite that is used, revoked or expired at `createdAt`.
   */
  createAccount(input: NewAccount): Promise<AccountRecord>;
  getAccount(id: number): Promise<AccountRecord | null>;
  findAccountByEmail(email: string): Promise<AccountRecord | null>;
  listAccounts(): Promise<AccountRecord[]>;
  /** Accounts whose email contains the text (case-insensitive), by id, one page. */
  searchAccounts(emailContains: string, limit: number, offset: number): Promise<AccountRecord[]>;
  /** Null when there is no such account; InvalidArgumentError (email / plan) as createAccount. */
  updateAccount(id: number, changes: AccountChanges): Promise<AccountRecord | null>;
  /** Deletes the account with its keys, usage, sessions, tokens, recovery codes, webhooks and their deliveries; false when absent. */
  deleteAccount(id: number): Promise<boolean>;
  /** Rejects with InvalidArgumentError (field prefix) when the prefix is taken. */
  addKey(key: NewApiKey): Promise<ApiKeyRecord>;
  /**
   * Atomically adds the new key and retires `oldKeyId` (if still active): it expires at `oldKeyExpiresAt`
   * (a grace period), or is revoked at `at` when that is not later than `at`.
   */
  rotateKey(oldKeyId: number, key: NewApiKey, at: number, oldKeyExpiresAt?: number): Promise<ApiKeyRecord>;
  findKeyByPrefix(prefix: string): Promise<ApiKeyRecord | null>;
  listKeys(accountId: number): Promise<ApiKeyRecord[]>;
  /** False when the key does not exist or was already revoked. */
  revokeKey(keyId: number, at: number): Promise<boolean>;
  /** Adds every increment in one transaction; resolves the day totals after adding, in the same order. */
  addUsage(increments: readonly UsageIncrement[]): Promise<number[]>;
  /** Counts of the given days (0 for days without requests), in the same order. */
  getUsage(accountId: number, days: readonly string[]): Promise<number[]>;
  /** Adds per-key increments and moves each key's last use to at least `at`, in one transaction. */
  addKeyUsage(increments: readonly KeyUsageIncrement[], at: number): Promise<void>;
  /** Each key's count of the day (0 when none), in the same order. */
  getKeyUsage(keyIds: readonly number[], day: string): Promise<number[]>;
  /** Every account's non-zero counts of the days from `fromDay` to `toDay` inclusive. */
  listUsage(fromDay: string, toDay: string): Promise<UsageRow[]>;
  /** Deletes account and key counts of days before `beforeDay`; resolves the number of rows deleted. */
  pruneUsage(beforeDay: string): Promise<number>;
}
