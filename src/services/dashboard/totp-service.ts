/**
 * The optional second factor: TOTP (RFC 6238: SHA-1, 6 digits, 30 s, one step of clock drift either way) with
 * `otpauth`. Secrets are 160 random bits sealed with the server key (AES-256-GCM, bound to the account) before
 * they reach the store; a code is accepted once (its time step is recorded). Ten one-time recovery codes of 80
 * bits each stand in for a lost device; only their SHA-256 is stored and they are shown once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { InvalidArgumentError } from '../../core/domain/errors.js';
import type { AccountRecord } from '../../core/store/account-store.js';
import type { AuthStore } from '../../core/store/auth-store.js';
import type { SecretBox } from './secret-box.js';

const PERIOD = 30;
const RECOVERY_CODES = 10;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export interface Enrolment {
  /** Base32, for typing into an authenticator app. */
  readonly secret: string;
  /** otpauth:// URI (the QR code's content). */
  readonly uri: string;
}

export interface TotpDeps {
  readonly auth: AuthStore;
  readonly box: SecretBox;
  /** The name authenticator apps show (the service's host). */
  readonly issuer: string;
  /** UNIX seconds. */
  readonly now: () => number;
}

const context = (accountId: number) => `totp:${accountId}`;

/** 16 base32 characters (80 bits) in groups of four. */
function recoveryCode(): string {
  const bytes = randomBytes(16);
  const chars = [...bytes].map((b) => BASE32[b & 31]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

function recoveryHash(code: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(code.toUpperCase().replace(/[^A-Z2-7]/g, ''), 'utf8').digest());
}

export class TotpService {
  constructor(private readonly deps: TotpDeps) {}

  /** Starts (or restarts) enrolment: a new secret, not yet required at sign-in. */
  async begin(account: AccountRecord): Promise<Enrolment> {
    if (account.totpEnabled) throw new InvalidArgumentError('totp', 'The second factor is already on.');
    const secret = new Secret({ size: 20 });
    await this.deps.auth.setTotp(account.id, { secret: this.deps.box.seal(secret.bytes, context(account.id)), enabledAt: null });
    return this.enrolment(account, secret);
  }

  /** The enrolment in progress, to show again (null when none is). */
  async pending(account: AccountRecord): Promise<Enrolment | null> {
    const secret = await this.secret(account.id, false);
    return secret ? this.enrolment(account, secret) : null;
  }

  /** Turns the factor on when the code matches the enrolment's secret; resolves the recovery codes (shown once). */
  async confirm(account: AccountRecord, code: string): Promise<string[]> {
    const secret = await this.secret(account.id, false);
    if (!secret) throw new InvalidArgumentError('totp', 'Start the set-up again: no second factor is being set up.');
    const step = this.matchingStep(secret, code);
    if (step === null) throw new InvalidArgumentError('code', 'That code does not match. Check the time on your device and try the next code.');
    const credentials = await this.deps.auth.getCredentials(account.id);
    await this.deps.auth.setTotp(account.id, { secret: credentials!.totpSecret!, enabledAt: this.deps.now() });
    await this.deps.auth.useTotpStep(account.id, step);
    return this.newRecoveryCodes(account.id);
  }

  /** A current TOTP code (each accepted once) or an unused recovery code. */
  async check(accountId: number, code: string): Promise<boolean> {
    const text = code.trim();
    if (/^\d{6}$/.test(text)) {
      const secret = await this.secret(accountId, true);
      const step = secret ? this.matchingStep(secret, text) : null;
      return step !== null && this.deps.auth.useTotpStep(accountId, step);
    }
    if (text.replace(/[\s-]/g, '').length !== 16) return false;
    return this.deps.auth.useRecoveryCode(accountId, recoveryHash(text), this.deps.now());
  }

  /** Replaces the recovery codes; resolves the new ones (shown once). */
  async newRecoveryCodes(accountId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
    await this.deps.auth.replaceRecoveryCodes(accountId, codes.map(recoveryHash), this.deps.now());
    return codes;
  }

  unusedRecoveryCodes(accountId: number): Promise<number> {
    return this.deps.auth.countUnusedRecoveryCodes(accountId);
  }

  /** Turns the factor off (its owner after a password check, or an administrator's reset); recovery codes go too. */
  async remove(accountId: number): Promise<void> {
    await this.deps.auth.setTotp(accountId, null);
  }

  private async secret(accountId: number, enabled: boolean): Promise<Secret | null> {
    const credentials = await this.deps.auth.getCredentials(accountId);
    if (!credentials?.totpSecret || (credentials.totpEnabledAt !== null) !== enabled) return null;
    const bytes = this.deps.box.open(credentials.totpSecret, context(accountId));
    return new Secret({ buffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
  }

  private matchingStep(secret: Secret, code: string): number | null {
    const timestamp = this.deps.now() * 1000;
    const delta = this.totp(secret, '').validate({ token: code.trim(), timestamp, window: 1 });
    return delta === null ? null : TOTP.counter({ period: PERIOD, timestamp }) + delta;
  }

  private totp(secret: Secret, label: string): TOTP {
    return new TOTP({ issuer: this.deps.issuer, label, secret, algorithm: 'SHA1', digits: 6, period: PERIOD });
  }

  private enrolment(account: AccountRecord, secret: Secret): Enrolment {
    return { secret: secret.base32, uri: this.totp(secret, account.email).toString() };
  }
}
