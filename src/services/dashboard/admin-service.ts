/**
 * The admin pages' operations. Every one checks that the acting account is an administrator (the web layer
 * checks too; this is the line that holds if a route forgets). Administrators cannot disable or demote
 * themselves, so a deployment always keeps one. Plan and account changes reach this process's key cache at once
 * and other API processes within 5 s.
 */
import { InvalidArgumentError, NotFoundError, ForbiddenError } from '../../core/domain/errors.js';
import type { AccountRecord, AccountStore, PlanRecord } from '../../core/store/account-store.js';
import type { InviteRecord } from '../../core/store/auth-store.js';
import type { AccountService, PlanLimits } from '../accounts/account-service.js';
import type { InviteService, NewInviteOptions } from '../accounts/invite-service.js';
import type { PasswordService } from './password-service.js';
import type { SessionService } from './session-service.js';
import type { TotpService } from './totp-service.js';
import type { AccountUsage, UsageService } from '../accounts/usage-service.js';

export const ADMIN_PAGE_SIZE = 50;

export interface AdminDeps {
  readonly accounts: AccountService;
  readonly store: AccountStore;
  readonly sessions: SessionService;
  readonly totp: TotpService;
  readonly invites: InviteService;
  readonly passwords: PasswordService;
  readonly usage: UsageService;
}

export class AdminService {
  constructor(private readonly deps: AdminDeps) {}

  /** One page of accounts whose email contains `query`, and whether more follow. */
  async searchAccounts(actor: AccountRecord, query: string, page: number): Promise<{ accounts: AccountRecord[]; more: boolean }> {
    admin(actor);
    const found = await this.deps.store.searchAccounts(query.trim().slice(0, 200), ADMIN_PAGE_SIZE + 1, Math.max(0, page - 1) * ADMIN_PAGE_SIZE);
    return { accounts: found.slice(0, ADMIN_PAGE_SIZE), more: found.length > ADMIN_PAGE_SIZE };
  }

  async account(actor: AccountRecord, id: number): Promise<AccountRecord> {
    admin(actor);
    const account = await this.deps.store.getAccount(id);
    if (!account) throw new NotFoundError('account', 'No such account.');
    return account;
  }

  async changePlan(actor: AccountRecord, id: number, plan: string): Promise<AccountRecord> {
    return this.update(actor, id, { plan });
  }

  async setDisabled(actor: AccountRecord, id: number, disabled: boolean, now: number): Promise<AccountRecord> {
    if (disabled && id === actor.id) throw new InvalidArgumentError('account', 'You cannot disable your own account.');
    const account = await this.update(actor, id, { disabledAt: disabled ? now : null });
    if (disabled) await this.deps.sessions.endAll(id);
    return account;
  }

  async setAdmin(actor: AccountRecord, id: number, isAdmin: boolean): Promise<AccountRecord> {
    if (!isAdmin && id === actor.id) throw new InvalidArgumentError('account', 'You cannot remove your own administrator role.');
    return this.update(actor, id, { isAdmin });
  }

  /** Turns a user's second factor off (a lost device without recovery codes); they sign in with the password alone. */
  async resetSecondFactor(actor: AccountRecord, id: number): Promise<void> {
    await this.account(actor, id);
    await this.deps.totp.remove(id);
  }

  /** A reset link to hand to the user (when the service sends no mail, or the mail does not arrive). */
  async resetLink(actor: AccountRecord, id: number): Promise<string> {
    return this.deps.passwords.resetLink(await this.account(actor, id));
  }

  async plans(actor: AccountRecord): Promise<PlanRecord[]> {
    admin(actor);
    return this.deps.accounts.listPlans();
  }

  /** As `outpoint plans set`: a limit not given keeps the plan's current one. */
  async setPlan(actor: AccountRecord, name: string, limits: PlanLimits): Promise<PlanRecord> {
    admin(actor);
    return this.deps.accounts.setPlan(name, limits);
  }

  async createInvite(actor: AccountRecord, options: Omit<NewInviteOptions, 'createdBy'>): Promise<{ url: string; invite: InviteRecord }> {
    admin(actor);
    return this.deps.invites.create({ ...options, createdBy: actor.id });
  }

  async invites(actor: AccountRecord): Promise<InviteRecord[]> {
    admin(actor);
    return this.deps.invites.list();
  }

  async revokeInvite(actor: AccountRecord, id: number): Promise<boolean> {
    admin(actor);
    return this.deps.invites.revoke(id);
  }

  /** Requests per account today and over the last 30 days. */
  async usage(actor: AccountRecord): Promise<Map<number, AccountUsage>> {
    admin(actor);
    return this.deps.usage.perAccount();
  }

  private async update(actor: AccountRecord, id: number, changes: Parameters<AccountStore['updateAccount']>[1]): Promise<AccountRecord> {
    admin(actor);
    const account = await this.deps.store.updateAccount(id, changes);
    if (!account) throw new NotFoundError('account', 'No such account.');
    this.deps.accounts.invalidate();
    return account;
  }
}

function admin(actor: AccountRecord): void {
  if (!actor.isAdmin || actor.disabledAt !== null) throw new ForbiddenError();
}
