/** AuthStore written once for both engines over a SqlRunner: sessions, one-time tokens, invites, second factors. */
import { InvalidArgumentError } from '../../../core/domain/errors.js';
import type {
  AuthStore, Credentials, InviteRecord, NewInvite, NewSession, NewToken, SessionRecord, TokenPurpose, TokenRecord,
} from '../../../core/store/auth-store.js';
import { int, intOrNull, isSet } from './account-rows.js';
import { bytes, flag, type SqlRow, type SqlRunner } from './sql-runner.js';

const toSession = (r: SqlRow): SessionRecord => ({
  id: int(r['id']),
  accountId: int(r['account_id']),
  createdAt: int(r['created_at']),
  lastSeenAt: int(r['last_seen_at']),
  expiresAt: int(r['expires_at']),
  ip: String(r['ip']),
  userAgent: String(r['user_agent']),
});

const toToken = (r: SqlRow): TokenRecord => ({
  accountId: int(r['account_id']),
  purpose: String(r['purpose']) as TokenPurpose,
  email: r['email'] === null ? null : String(r['email']),
  createdAt: int(r['created_at']),
  expiresAt: int(r['expires_at']),
});

const toInvite = (r: SqlRow): InviteRecord => ({
  id: int(r['id']),
  plan: String(r['plan']),
  isAdmin: isSet(r['is_admin']),
  createdAt: int(r['created_at']),
  expiresAt: int(r['expires_at']),
  createdBy: intOrNull(r['created_by']),
  usedAt: intOrNull(r['used_at']),
  usedBy: intOrNull(r['used_by']),
  revokedAt: intOrNull(r['revoked_at']),
});

const SESSION_COLUMNS = 'id, account_id, created_at, last_seen_at, expires_at, ip, user_agent';
const TOKEN_COLUMNS = 'account_id, purpose, email, created_at, expires_at';
const INVITE_COLUMNS = 'id, plan, is_admin, created_at, expires_at, created_by, used_at, used_by, revoked_at';
const LIVE_TOKEN = 'token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?';

export class SqlAuthStore implements AuthStore {
  constructor(private readonly sql: SqlRunner) {}

  async getCredentials(accountId: number): Promise<Credentials | null> {
    const [r] = await this.sql.all('SELECT password_hash, totp_secret, totp_enabled_at, totp_last_step FROM accounts WHERE id = ?', [accountId]);
    if (!r) return null;
    return {
      passwordHash: r['password_hash'] === null ? null : String(r['password_hash']),
      totpSecret: r['totp_secret'] === null ? null : new Uint8Array(r['totp_secret'] as Uint8Array),
      totpEnabledAt: intOrNull(r['totp_enabled_at']),
      totpLastStep: intOrNull(r['totp_last_step']),
    };
  }

  async setPasswordHash(accountId: number, hash: string): Promise<void> {
    await this.sql.run('UPDATE accounts SET password_hash = ? WHERE id = ?', [hash, accountId]);
  }

  async setTotp(accountId: number, totp: { readonly secret: Uint8Array; readonly enabledAt: number | null } | null): Promise<void> {
    await this.sql.batch([
      {
        sql: 'UPDATE accounts SET totp_secret = ?, totp_enabled_at = ?, totp_last_step = NULL WHERE id = ?',
        params: [totp ? bytes(totp.secret) : null, totp?.enabledAt ?? null, accountId],
      },
      ...(totp ? [] : [{ sql: 'DELETE FROM recovery_codes WHERE account_id = ?', params: [accountId] }]),
    ]);
  }

  async useTotpStep(accountId: number, step: number): Promise<boolean> {
    const changed = await this.sql.run('UPDATE accounts SET totp_last_step = ? WHERE id = ? AND (totp_last_step IS NULL OR totp_last_step < ?)', [step, accountId, step]);
    return changed === 1;
  }

  async replaceRecoveryCodes(accountId: number, hashes: readonly Uint8Array[], at: number): Promise<void> {
    await this.sql.batch([
      { sql: 'DELETE FROM recovery_codes WHERE account_id = ?', params: [accountId] },
      ...hashes.map((h) => ({ sql: 'INSERT INTO recovery_codes (account_id, code_hash, created_at) VALUES (?, ?, ?)', params: [accountId, bytes(h), at] })),
    ]);
  }

  async useRecoveryCode(accountId: number, hash: Uint8Array, at: number): Promise<boolean> {
    return (await this.sql.run('UPDATE recovery_codes SET used_at = ? WHERE account_id = ? AND code_hash = ? AND used_at IS NULL', [at, accountId, bytes(hash)])) === 1;
  }

  async countUnusedRecoveryCodes(accountId: number): Promise<number> {
    const [r] = await this.sql.all('SELECT COUNT(*) AS n FROM recovery_codes WHERE account_id = ? AND used_at IS NULL', [accountId]);
    return int(r!['n']);
  }

  async createSession(session: NewSession): Promise<SessionRecord> {
    await this.sql.batch([{
      sql: 'INSERT INTO sessions (token_hash, account_id, created_at, last_seen_at, expires_at, ip, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?)',
      params: [bytes(session.tokenHash), session.accountId, session.createdAt, session.createdAt, session.expiresAt, session.ip, session.userAgent],
      unique: new InvalidArgumentError('session', 'session id taken'),
    }]);
    return (await this.findSession(session.tokenHash))!;
  }

  async findSession(tokenHash: Uint8Array): Promise<SessionRecord | null> {
    const [r] = await this.sql.all(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE token_hash = ?`, [bytes(tokenHash)]);
    return r ? toSession(r) : null;
  }

  async touchSession(id: number, at: number): Promise<void> {
    await this.sql.run('UPDATE sessions SET last_seen_at = ? WHERE id = ? AND last_seen_at < ?', [at, id, at]);
  }

  async listSessions(accountId: number): Promise<SessionRecord[]> {
    return (await this.sql.all(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE account_id = ? ORDER BY id`, [accountId])).map(toSession);
  }

  async deleteSession(accountId: number, id: number): Promise<boolean> {
    return (await this.sql.run('DELETE FROM sessions WHERE account_id = ? AND id = ?', [accountId, id])) === 1;
  }

  async deleteSessions(accountId: number, exceptId?: number): Promise<number> {
    return this.sql.run('DELETE FROM sessions WHERE account_id = ? AND id <> ?', [accountId, exceptId ?? -1]);
  }

  async createToken(token: NewToken): Promise<void> {
    await this.sql.run('INSERT INTO account_tokens (token_hash, purpose, account_id, email, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)', [
      bytes(token.tokenHash), token.purpose, token.accountId, token.email, token.createdAt, token.expiresAt,
    ]);
  }

  async findToken(tokenHash: Uint8Array, purpose: TokenPurpose, at: number): Promise<TokenRecord | null> {
    const [r] = await this.sql.all(`SELECT ${TOKEN_COLUMNS} FROM account_tokens WHERE ${LIVE_TOKEN}`, [bytes(tokenHash), purpose, at]);
    return r ? toToken(r) : null;
  }

  async consumeToken(tokenHash: Uint8Array, purpose: TokenPurpose, at: number): Promise<TokenRecord | null> {
    const [r] = await this.sql.all(`UPDATE account_tokens SET used_at = ? WHERE ${LIVE_TOKEN} RETURNING ${TOKEN_COLUMNS}`, [at, bytes(tokenHash), purpose, at]);
    return r ? toToken(r) : null;
  }

  async deleteTokens(accountId: number, purpose: TokenPurpose): Promise<void> {
    await this.sql.run('DELETE FROM account_tokens WHERE account_id = ? AND purpose = ?', [accountId, purpose]);
  }

  async createInvite(invite: NewInvite): Promise<InviteRecord> {
    await this.sql.batch([{
      sql: 'INSERT INTO invites (token_hash, plan, is_admin, created_at, expires_at, created_by) VALUES (?, ?, ?, ?, ?, ?)',
      params: [bytes(invite.tokenHash), invite.plan, flag(invite.isAdmin), invite.createdAt, invite.expiresAt, invite.createdBy],
      unique: new InvalidArgumentError('invite', 'invite code taken'),
    }]);
    return (await this.findInvite(invite.tokenHash))!;
  }

  async findInvite(tokenHash: Uint8Array): Promise<InviteRecord | null> {
    const [r] = await this.sql.all(`SELECT ${INVITE_COLUMNS} FROM invites WHERE token_hash = ?`, [bytes(tokenHash)]);
    return r ? toInvite(r) : null;
  }

  async listInvites(): Promise<InviteRecord[]> {
    return (await this.sql.all(`SELECT ${INVITE_COLUMNS} FROM invites ORDER BY id DESC`, [])).map(toInvite);
  }

  async revokeInvite(id: number, at: number): Promise<boolean> {
    return (await this.sql.run('UPDATE invites SET revoked_at = ? WHERE id = ? AND used_at IS NULL AND revoked_at IS NULL', [at, id])) === 1;
  }

  async prune(at: number, idleBefore: number): Promise<number> {
    const counts = await this.sql.batch([
      { sql: 'DELETE FROM sessions WHERE expires_at <= ? OR last_seen_at < ?', params: [at, idleBefore] },
      { sql: 'DELETE FROM account_tokens WHERE expires_at <= ?', params: [at] },
    ]);
    return counts[0]! + counts[1]!;
  }
}
