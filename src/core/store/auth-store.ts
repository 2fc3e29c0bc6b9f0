/**
 * The dashboard's sign-in data: password hashes, second factors, sessions, one-time tokens and invites.
 * Secrets never reach the store in the clear: session ids, tokens, invite codes and recovery codes are
 * stored as SHA-256 hashes, passwords as scrypt strings, TOTP secrets sealed (AES-256-GCM) by the service.
 */

/** What proves an account's identity; kept apart from AccountRecord so it is never cached or passed around. */
export interface Credentials {
  /** Self-describing scrypt string (`$scrypt$ln=17,r=8,p=1$salt$hash`); null until a password is set. */
  readonly passwordHash: string | null;
  /** The sealed TOTP secret: during enrolment (totpEnabledAt null) and while the second factor is on. */
  readonly totpSecret: Uint8Array | null;
  readonly totpEnabledAt: number | null;
  /** The last 30-second step whose code was accepted: a code is good once. */
  readonly totpLastStep: number | null;
}

export interface SessionRecord {
  /** Surrogate id, to list and end sessions without handling their secret. */
  readonly id: number;
  readonly accountId: number;
  readonly createdAt: number;
  readonly lastSeenAt: number;
  /** Absolute expiry; the idle expiry is lastSeenAt + the configured idle time. */
  readonly expiresAt: number;
  readonly ip: string;
  readonly userAgent: string;
}

export interface NewSession {
  readonly tokenHash: Uint8Array;
  readonly accountId: number;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly ip: string;
  readonly userAgent: string;
}

/** reset: a password-reset link; verify: an email-verification link; second_factor: a sign-in waiting for its TOTP code. */
export type TokenPurpose = 'reset' | 'verify' | 'second_factor';

export interface TokenRecord {
  readonly accountId: number;
  readonly purpose: TokenPurpose;
  /** verify: the address the link confirms (the account's email may have changed since). */
  readonly email: string | null;
  readonly createdAt: number;
  readonly expiresAt: number;
}

export interface NewToken extends TokenRecord {
  readonly tokenHash: Uint8Array;
}

export interface InviteRecord {
  readonly id: number;
  /** The plan the new account gets. */
  readonly plan: string;
  readonly isAdmin: boolean;
  readonly createdAt: number;
  readonly expiresAt: number;
  /** The administrator who made it; null for the CLI. */
  readonly createdBy: number | null;
  readonly usedAt: number | null;
  readonly usedBy: number | null;
  readonly revokedAt: number | null;
}

export interface NewInvite {
  readonly tokenHash: Uint8Array;
  readonly plan: string;
  readonly isAdmin: boolean;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly createdBy: number | null;
}

export interface AuthStore {
  getCredentials(accountId: number): Promise<Credentials | null>;
  setPasswordHash(accountId: number, hash: string): Promise<void>;
  /** Starts enrolment (enabledAt null), turns the factor on, or (null) removes it together with its recovery codes. */
  setTotp(accountId: number, totp: { readonly secret: Uint8Array; readonly enabledAt: number | null } | null): Promise<void>;
  /** Records an accepted code's step; false when it is not newer than the last one (a replayed code). Atomic. */
  useTotpStep(accountId: number, step: number): Promise<boolean>;
  /** Replaces every recovery code of the account. */
  replaceRecoveryCodes(accountId: number, hashes: readonly Uint8Array[], at: number): Promise<void>;
  /** Marks one unused code used; false when there is no such unused code. Atomic: a code works once. */
  useRecoveryCode(accountId: number, hash: Uint8Array, at: number): Promise<boolean>;
  countUnusedRecoveryCodes(accountId: number): Promise<number>;

  /** Rejects with InvalidArgumentError (field session) on a taken hash. */
  createSession(session: NewSession): Promise<SessionRecord>;
  findSession(tokenHash: Uint8Array): Promise<SessionRecord | null>;
  touchSession(id: number, at: number): Promise<void>;
  listSessions(accountId: number): Promise<SessionRecord[]>;
  /** Ends one session of the account; false when it has no such session. */
  deleteSession(accountId: number, id: number): Promise<boolean>;
  /** Ends every session of the account except `exceptId`; resolves how many ended. */
  deleteSessions(accountId: number, exceptId?: number): Promise<number>;

  createToken(token: NewToken): Promise<void>;
  /** The token when it has the purpose, is unused and unexpired at `at`; null otherwise. */
  findToken(tokenHash: Uint8Array, purpose: TokenPurpose, at: number): Promise<TokenRecord | null>;
  /** Like findToken, and marks it used in the same statement: of two concurrent uses one gets null. */
  consumeToken(tokenHash: Uint8Array, purpose: TokenPurpose, at: number): Promise<TokenRecord | null>;
  /** Deletes the account's tokens of one purpose (older reset links die when the password changes). */
  deleteTokens(accountId: number, purpose: TokenPurpose): Promise<void>;

  createInvite(invite: NewInvite): Promise<InviteRecord>;
  findInvite(tokenHash: Uint8Array): Promise<InviteRecord | null>;
  /** Newest first. */
  listInvites(): Promise<InviteRecord[]>;
  /** False when the invite does not exist or was already used or revoked. */
  revokeInvite(id: number, at: number): Promise<boolean>;

  /** Deletes ended sessions (absolute expiry passed or idle since before `idleBefore`) and expired tokens. */
  prune(at: number, idleBefore: number): Promise<number>;
}
