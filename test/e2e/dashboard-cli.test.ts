/**
 * The operator's dashboard commands run as child processes on a temporary SQLite store: the first administrator
 * with a password read from standard input, invites, reset links, account changes, second-factor reset, key
 * rotation with a grace. What they print is then used the way a user would (sign-up with the invite link,
 * sign-in with the password, the key against v3's key check).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tokenHash } from '../../src/services/accounts/one-time-token.js';
import { CLIENT, dashboardFixture, linkParam, totpCode } from '../helpers/dashboard-fixture.js';
import { recordingLogger } from '../helpers/recording-logger.js';

const dir = mkdtempSync(join(tmpdir(), 'outpoint-dash-cli-'));
const db = join(dir, 'o.db');
const config = join(dir, 'outpoint.toml');
writeFileSync(config, `data_dir = "${dir}"\n[store]\nurl = "sqlite:${db}"\n[http]\npublic_url = "https://dash.example"\n`);

after(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[], stdin?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', ...args, '--config', config], { cwd: process.cwd() }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    );
    child.stdin!.end(stdin ?? '');
  });
}

const keyIn = (text: string) => /API key \(shown once, store it now\): (opk_[A-Za-z0-9_-]{43})/.exec(text)![1]!;
const linkIn = (text: string) => /(https:\/\/dash\.example\/\S+)/.exec(text)![1]!;

describe('dashboard CLI', () => {
  it('makes the first administrator with a password from stdin, invites, reset links, account changes, 2FA reset, graceful rotation', async () => {
    const created = await cli(['accounts', 'create', '--email', 'Root@Example.com', '--plan', 'free', '--admin', '--password-prompt'], 'root password 123\n');
    assert.match(created, /created for root@example.com on plan free \(administrator\)/);
    const firstKey = keyIn(created);
    await assert.rejects(cli(['accounts', 'create', '--email', 'weak@example.com', '--plan', 'free', '--password-prompt'], 'short\n'), /at least 10 characters/);

    const invite = await cli(['invites', 'create', '--admin', '--expires-hours', '2']);
    assert.match(invite, /invite 1 for plan free \(administrator\), valid until/);
    const inviteUrl = linkIn(invite);
    assert.match(inviteUrl, /^https:\/\/dash\.example\/dashboard\/sign-up\?invite=[A-Za-z0-9_-]{43}$/);
    const spare = await cli(['invites', 'create', '--plan', 'free']);
    assert.match(await cli(['invites', 'revoke', '--id', '2']), /invite 2 revoked/);
    await assert.rejects(cli(['invites', 'revoke', '--id', '2']), /already used or revoked/);
    await assert.rejects(cli(['invites', 'create', '--plan', 'nope']), /No plan named nope/);
    const reset = await cli(['accounts', 'reset-link', '--email', 'root@example.com']);
    assert.match(reset, /one use, 60 minutes/);

    const store = new SqliteStore({ path: db });
    const f = dashboardFixture(store, recordingLogger().logger, { settings: { registration: 'invite' } });
    try {
      const signedIn = await f.d.signIn.signIn('root@example.com', 'root password 123', CLIENT);
      assert.equal(signedIn.kind, 'signed-in');
      if (signedIn.kind === 'signed-in') assert.equal(signedIn.active.account.isAdmin, true);
      assert.equal((await f.accounts.authenticate(firstKey)).account.email, 'root@example.com');
      // Valid for 60 minutes from when the CLI made it, a few seconds before this clock (60 s of margin for a loaded machine).
      const resetHash = tokenHash(linkParam(linkIn(reset), 'token'));
      assert.ok(await store.auth().findToken(resetHash, 'reset', f.clock.t + 3540));
      assert.equal(await store.auth().findToken(resetHash, 'reset', f.clock.t + 3600), null);
      const { active } = await f.d.registration.signUp({ email: 'second@example.com', password: 'second password', invite: linkParam(inviteUrl, 'invite') }, CLIENT);
      assert.equal(active.account.isAdmin, true);
      assert.equal((await f.d.registration.offer(linkParam(linkIn(spare), 'invite'))).invite, null, 'revoked');
      const listed = await cli(['invites', 'list']);
      assert.match(listed, /invite 2\tfree\trevoked/);
      assert.match(listed, new RegExp(`invite 1\\tfree \\(admin\\)\\tused .* by account ${active.account.id}`));

      await f.d.totp.confirm(active.account, totpCode((await f.d.totp.begin(active.account)).secret, f.clock.t));
      assert.equal((await f.d.signIn.signIn('second@example.com', 'second password', CLIENT)).kind, 'second-factor');
      assert.match(await cli(['accounts', 'reset-2fa', '--email', 'second@example.com']), /second factor of second@example.com turned off/);
      assert.equal((await f.d.signIn.signIn('second@example.com', 'second password', CLIENT)).kind, 'signed-in');

      assert.match(await cli(['accounts', 'set', '--email', 'second@example.com', '--role', 'user', '--disabled', 'yes']), /second@example.com: plan free, user, disabled/);
      assert.match((await store.auth().listSessions(active.account.id)).length === 0 ? 'ended' : 'kept', /ended/);
      assert.match(await cli(['accounts', 'show', '--email', 'second@example.com']), /DISABLED/);
      assert.match(await cli(['accounts', 'set', '--email', 'second@example.com', '--disabled', 'no']), /enabled/);

      const rotated = await cli(['keys', 'rotate', '--email', 'root@example.com', '--grace-seconds', '3600']);
      assert.match(rotated, /works 3600 s more, replaced by/);
      const secondKey = keyIn(rotated);
      assert.equal((await f.accounts.authenticate(firstKey)).account.email, 'root@example.com', 'the old key works in its grace');
      assert.equal((await f.accounts.authenticate(secondKey)).account.email, 'root@example.com');
      assert.match(await cli(['accounts', 'show', '--email', 'root@example.com']), /rotated, works until/);
      assert.ok(!existsSync(join(dir, 'secret.key')), 'commands that seal nothing do not make the secret key');
    } finally {
      await f.close();
      await store.close();
    }
  });
});
