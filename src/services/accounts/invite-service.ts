/**
 * Invites: one-time sign-up links the operator makes (CLI or admin page) while registration is `invite` (they
 * also work when it is `open`, e.g. for another plan or an administrator). The link carries 256 random bits;
 * the store keeps their SHA-256, the plan, whether the new account is an administrator, and the expiry.
 */
import { InvalidArgumentError } from '../../core/domain/errors.js';
import type { AccountStore } from '../../core/store/account-store.js';
import type { AuthStore, InviteRecord } from '../../core/store/auth-store.js';
import type { DashboardLinks } from './dashboard-links.js';
import { isTokenShaped, newToken, tokenHash } from './one-time-token.js';

export const DEFAULT_INVITE_HOURS = 168;
const MAX_INVITE_HOURS = 8760;

export interface InviteDeps {
  readonly accounts: AccountStore;
  readonly auth: AuthStore;
  readonly links: DashboardLinks;
  /** UNIX seconds. */
  readonly now: () => number;
}

export interface NewInviteOptions {
  readonly plan: string;
  readonly isAdmin?: boolean;
  readonly expiresHours?: number;
  /** The administrator making it; null for the CLI. */
  readonly createdBy?: number | null;
}

export class InviteService {
  constructor(private readonly deps: InviteDeps) {}

  /** Resolves the link (shown once: only its hash is kept) and the stored invite. */
  async create(options: NewInviteOptions): Promise<{ url: string; invite: InviteRecord }> {
    const hours = options.expiresHours ?? DEFAULT_INVITE_HOURS;
    if (!Number.isSafeInteger(hours) || hours < 1 || hours > MAX_INVITE_HOURS) throw new InvalidArgumentError('expires_hours', `An invite lasts 1 to ${MAX_INVITE_HOURS} hours.`);
    if (!(await this.deps.accounts.getPlan(options.plan))) throw new InvalidArgumentError('plan', `No plan named ${options.plan.slice(0, 40)}.`);
    const now = this.deps.now();
    const { token, hash } = newToken();
    const invite = await this.deps.auth.createInvite({
      tokenHash: hash, plan: options.plan, isAdmin: options.isAdmin ?? false, createdAt: now, expiresAt: now + hours * 3600, createdBy: options.createdBy ?? null,
    });
    return { url: this.deps.links.invite(token), invite };
  }

  /** The invite behind a link when it can still be used, else null. */
  async usable(code: unknown): Promise<InviteRecord | null> {
    if (!isTokenShaped(code)) return null;
    const invite = await this.deps.auth.findInvite(tokenHash(code));
    return invite && invite.usedAt === null && invite.revokedAt === null && invite.expiresAt > this.deps.now() ? invite : null;
  }

  list(): Promise<InviteRecord[]> {
    return this.deps.auth.listInvites();
  }

  revoke(id: number): Promise<boolean> {
    return this.deps.auth.revokeInvite(id, this.deps.now());
  }
}
