import { DEFAULT_INVITE_HOURS } from '../../services/accounts/invite-service.js';
import type { Command } from '../cli/command.js';
import { configOptions } from '../cli/config-option.js';
import { integerOption, optionalString, withDashboard } from './account-admin.js';

const iso = (t: number | null) => (t === null ? '-' : new Date(t * 1000).toISOString().replace('.000Z', 'Z'));

export const invitesCommand: Command = {
  name: 'invites',
  summary: 'one-time sign-up links for the dashboard',
  help: `outpoint invites create [--plan NAME] [--expires-hours ${DEFAULT_INVITE_HOURS}] [--admin] [--config FILE]
outpoint invites list [--config FILE]
outpoint invites revoke --id N [--config FILE]

create  prints a one-time sign-up link (shown once: only its hash is stored) for an
        account on --plan (default: [accounts] default_plan); --admin makes the new
        account an administrator (e.g. the first one). Links work while
        [accounts] registration is invite or open, until used or expired.
list    prints every invite: plan, state, expiry.
revoke  makes an unused invite unusable.
`,
  options: { ...configOptions, plan: { type: 'string' }, 'expires-hours': { type: 'string' }, admin: { type: 'boolean' }, id: { type: 'string' } },
  async run(options, positionals) {
    const [action] = positionals;
    if (action === 'create') {
      const expiresHours = integerOption(options, 'expires-hours');
      const { url, invite } = await withDashboard(options, ({ dashboard, config }) =>
        dashboard.invites.create({
          plan: optionalString(options, 'plan') ?? config.accounts.defaultPlan,
          isAdmin: options['admin'] === true,
          ...(expiresHours !== undefined ? { expiresHours } : {}),
        }),
      );
      process.stdout.write(
        `invite ${invite.id} for plan ${invite.plan}${invite.isAdmin ? ' (administrator)' : ''}, valid until ${iso(invite.expiresAt)}:\n${url}\n`,
      );
      return 0;
    }
    if (action === 'list') {
      const invites = await withDashboard(options, ({ dashboard }) => dashboard.invites.list());
      const now = Math.floor(Date.now() / 1000);
      for (const i of invites) {
        const state = i.usedAt !== null ? `used ${iso(i.usedAt)} by account ${i.usedBy ?? '-'}` : i.revokedAt !== null ? `revoked ${iso(i.revokedAt)}` : i.expiresAt <= now ? 'expired' : 'open';
        process.stdout.write(`invite ${i.id}\t${i.plan}${i.isAdmin ? ' (admin)' : ''}\t${state}\texpires ${iso(i.expiresAt)}\n`);
      }
      if (invites.length === 0) process.stdout.write('no invites\n');
      return 0;
    }
    if (action === 'revoke') {
      const id = integerOption(options, 'id');
      if (id === undefined) throw new Error('--id is required');
      const done = await withDashboard(options, ({ dashboard }) => dashboard.invites.revoke(id));
      if (!done) throw new Error(`invite ${id} does not exist or was already used or revoked`);
      process.stdout.write(`invite ${id} revoked\n`);
      return 0;
    }
    process.stderr.write(this.help);
    return 2;
  },
};
