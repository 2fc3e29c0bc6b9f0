import { checkNewPassword } from '../../services/dashboard/password-policy.js';
import type { Command, OptionValues } from '../cli/command.js';
import { configOptions } from '../cli/config-option.js';
import { describeAccount, integerOption, optionalString, requireString, withAccounts, withDashboard } from './account-admin.js';
import { promptPassword } from '../cli/password-prompt.js';

export const accountsCommand: Command = {
  name: 'accounts',
  summary: 'create, show and change v3 accounts',
  help: `outpoint accounts create --email E --plan NAME [--admin] [--password-prompt] [--period-days 30] [--no-renew] [--config FILE]
outpoint accounts show [--email E] [--config FILE]
outpoint accounts set --email E [--plan NAME] [--role admin|user] [--disabled yes|no] [--config FILE]
outpoint accounts reset-link --email E [--config FILE]
outpoint accounts reset-2fa --email E [--config FILE]

create      makes the account and its first API key. The key is printed ONCE: only its
            hash is stored. The plan period ends after --period-days (default 30) and
            renews by itself unless --no-renew is given. --admin makes an administrator
            of the dashboard; --password-prompt asks for its dashboard password (on a
            terminal, twice without echo; else the first line of standard input).
            Without a password the account signs in after a reset link.
show        prints one account (or every account): plan, period, requests used today and
            yesterday (UTC), and its keys by prefix.
set         changes the plan, the administrator role or whether the account is disabled
            (a disabled account's keys answer 401 and it cannot sign in).
reset-link  prints a one-time link (60 minutes) to set the account's dashboard password.
reset-2fa   turns the account's second factor off (lost device, no recovery codes left).
`,
  options: {
    ...configOptions, email: { type: 'string' }, plan: { type: 'string' }, 'period-days': { type: 'string' }, 'no-renew': { type: 'boolean' },
    admin: { type: 'boolean' }, 'password-prompt': { type: 'boolean' }, role: { type: 'string' }, disabled: { type: 'string' },
  },
  async run(options, positionals) {
    const [action] = positionals;
    if (action === 'create') return create(options);
    if (action === 'show') {
      const email = optionalString(options, 'email');
      const text = await withAccounts(options, async (accounts, store) => {
        const list = email ? [await accounts.account(email)] : await accounts.listAccounts();
        const parts = [];
        for (const account of list) parts.push(await describeAccount(accounts, store, account));
        return parts.join('\n\n');
      });
      process.stdout.write(text === '' ? 'no accounts\n' : `${text}\n`);
      return 0;
    }
    if (action === 'set') return set(options);
    if (action === 'reset-link') {
      const url = await withDashboard(options, async ({ accounts, dashboard }) => dashboard.passwords.resetLink(await accounts.account(requireString(options, 'email'))));
      process.stdout.write(`password reset link (one use, 60 minutes):\n${url}\n`);
      return 0;
    }
    if (action === 'reset-2fa') {
      const email = await withDashboard(options, async ({ accounts, dashboard }) => {
        const account = await accounts.account(requireString(options, 'email'));
        await dashboard.totp.remove(account.id);
        return account.email;
      });
      process.stdout.write(`second factor of ${email} turned off; it signs in with its password alone\n`);
      return 0;
    }
    process.stderr.write(this.help);
    return 2;
  },
};

async function create(options: OptionValues): Promise<number> {
  const email = requireString(options, 'email');
  const plan = requireString(options, 'plan');
  const periodDays = integerOption(options, 'period-days');
  let password: string | null = null;
  if (options['password-prompt'] === true) {
    password = await promptPassword(`Dashboard password for ${email}`);
    checkNewPassword(password, email);
  }
  const issued = await withDashboard(options, async ({ accounts, dashboard }) =>
    accounts.createAccount(email, plan, {
      ...(periodDays !== undefined ? { periodDays } : {}),
      willRenew: options['no-renew'] !== true,
      isAdmin: options['admin'] === true,
      passwordHash: password === null ? null : await dashboard.hasher.hash(password),
    }),
  );
  process.stdout.write(
    `account ${issued.account.id} created for ${issued.account.email} on plan ${issued.account.plan.name}${issued.account.isAdmin ? ' (administrator)' : ''}\n` +
      `API key (shown once, store it now): ${issued.key}\n`,
  );
  return 0;
}

async function set(options: OptionValues): Promise<number> {
  const role = optionalString(options, 'role');
  const disabled = optionalString(options, 'disabled');
  if (role !== undefined && role !== 'admin' && role !== 'user') throw new Error('--role is admin or user');
  if (disabled !== undefined && disabled !== 'yes' && disabled !== 'no') throw new Error('--disabled is yes or no');
  const plan = optionalString(options, 'plan');
  const account = await withDashboard(options, async ({ accounts, dashboard, store }) => {
    const found = await accounts.account(requireString(options, 'email'));
    const changed = await store.accounts().updateAccount(found.id, {
      ...(plan !== undefined ? { plan } : {}),
      ...(role !== undefined ? { isAdmin: role === 'admin' } : {}),
      ...(disabled !== undefined ? { disabledAt: disabled === 'yes' ? Math.floor(Date.now() / 1000) : null } : {}),
    });
    if (disabled === 'yes') await dashboard.sessions.endAll(found.id);
    return changed!;
  });
  process.stdout.write(`${account.email}: plan ${account.plan.name}, ${account.isAdmin ? 'administrator' : 'user'}, ${account.disabledAt === null ? 'enabled' : 'disabled'}\n`);
  return 0;
}
