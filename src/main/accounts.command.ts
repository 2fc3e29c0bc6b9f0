import type { Command } from './command.js';
import { configOptions } from './config-option.js';
import { describeAccount, integerOption, optionalString, requireString, withAccounts } from './account-admin.js';

export const accountsCommand: Command = {
  name: 'accounts',
  summary: 'create and show v3 accounts',
  help: `outpoint accounts create --email E --plan NAME [--period-days 30] [--no-renew] [--config FILE]
outpoint accounts show [--email E] [--config FILE]

create  makes the account and its first API key. The key is printed ONCE: only its
        hash is stored. The plan period ends after --period-days (default 30) and
        renews by itself unless --no-renew is given.
show    prints one account (or every account): plan, period, requests used today and
        yesterday (UTC), and its keys by prefix.
`,
  options: { ...configOptions, email: { type: 'string' }, plan: { type: 'string' }, 'period-days': { type: 'string' }, 'no-renew': { type: 'boolean' } },
  async run(options, positionals) {
    const [action] = positionals;
    if (action === 'create') {
      const email = requireString(options, 'email');
      const plan = requireString(options, 'plan');
      const periodDays = integerOption(options, 'period-days');
      const issued = await withAccounts(options, (accounts) =>
        accounts.createAccount(email, plan, { ...(periodDays !== undefined ? { periodDays } : {}), willRenew: options['no-renew'] !== true }),
      );
      process.stdout.write(
        `account ${issued.account.id} created for ${issued.account.email} on plan ${issued.account.plan.name}\n` +
          `API key (shown once, store it now): ${issued.key}\n`,
      );
      return 0;
    }
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
    process.stderr.write(this.help);
    return 2;
  },
};
