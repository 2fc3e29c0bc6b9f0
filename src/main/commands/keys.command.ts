import type { Command } from '../cli/command.js';
import { configOptions } from '../cli/config-option.js';
import { integerOption, keyLine, optionalString, requireString, withAccounts } from './account-admin.js';

export const keysCommand: Command = {
  name: 'keys',
  summary: 'issue, rotate and revoke v3 API keys',
  help: `outpoint keys create --email E [--name TEXT] [--config FILE]
outpoint keys rotate --email E [--prefix P] [--grace-seconds N] [--config FILE]
outpoint keys revoke (--prefix P | --email E) [--config FILE]

Keys are named by their prefix (opk_ and 8 characters), as \`accounts show\` lists them.
create  issues an additional key for the account (printed once).
rotate  replaces a key with a new one in one step (printed once); --prefix says which
        key when the account has several active ones. The old key stops at once, or
        after --grace-seconds N (the dashboard's rotation uses [accounts] key_grace_seconds).
revoke  revokes the key with --prefix, or every active key of --email.
Running API processes notice a revocation or rotation within 5 seconds (their key cache).
`,
  options: { ...configOptions, email: { type: 'string' }, prefix: { type: 'string' }, name: { type: 'string' }, 'grace-seconds': { type: 'string' } },
  async run(options, positionals) {
    const [action] = positionals;
    const prefix = optionalString(options, 'prefix');
    if (action === 'create') {
      const issued = await withAccounts(options, (accounts) => accounts.issueKey(requireString(options, 'email'), optionalString(options, 'name')));
      process.stdout.write(`new key ${issued.record.prefix}… for ${issued.account.email}\nAPI key (shown once, store it now): ${issued.key}\n`);
      return 0;
    }
    if (action === 'rotate') {
      const grace = integerOption(options, 'grace-seconds') ?? 0;
      const issued = await withAccounts(options, (accounts) => accounts.rotate(requireString(options, 'email'), prefix, grace));
      const retired = grace > 0 ? `works ${grace} s more` : 'revoked';
      process.stdout.write(
        `key ${issued.replaced.prefix}… ${retired}, replaced by ${issued.record.prefix}… for ${issued.account.email}\n` +
          `API key (shown once, store it now): ${issued.key}\n`,
      );
      return 0;
    }
    if (action === 'revoke') {
      const email = optionalString(options, 'email');
      if (prefix === undefined && email === undefined) throw new Error('keys revoke needs --prefix P or --email E');
      const revoked = await withAccounts(options, async (accounts) => (prefix !== undefined ? [await accounts.revoke(prefix)] : accounts.revokeAll(email!)));
      process.stdout.write(revoked.length === 0 ? 'no active key to revoke\n' : `revoked:\n${revoked.map(keyLine).join('\n')}\n`);
      return 0;
    }
    process.stderr.write(this.help);
    return 2;
  },
};
