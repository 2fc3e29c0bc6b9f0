import type { Command } from './command.js';
import { configOptions } from './config-option.js';
import { integerOption, withAccounts } from './account-admin.js';

export const plansCommand: Command = {
  name: 'plans',
  summary: 'create or change v3 plans (daily request quotas)',
  help: `outpoint plans set NAME --max-daily-requests N [--config FILE]
outpoint plans list [--config FILE]

set   creates plan NAME or changes its daily limit (accounts on it follow at once
      in new processes, within a few seconds in running API processes).
list  prints every plan.
`,
  options: { ...configOptions, 'max-daily-requests': { type: 'string' } },
  async run(options, positionals) {
    const [action, name] = positionals;
    if (action === 'set') {
      if (!name) throw new Error('usage: outpoint plans set NAME --max-daily-requests N');
      const max = integerOption(options, 'max-daily-requests');
      if (max === undefined) throw new Error('--max-daily-requests is required');
      const plan = await withAccounts(options, (accounts) => accounts.setPlan(name, max));
      process.stdout.write(`plan ${plan.name}: ${plan.maxDailyRequests} requests per day\n`);
      return 0;
    }
    if (action === 'list') {
      const plans = await withAccounts(options, (accounts) => accounts.listPlans());
      for (const plan of plans) process.stdout.write(`${plan.name}\t${plan.maxDailyRequests} requests per day\n`);
      return 0;
    }
    process.stderr.write(this.help);
    return 2;
  },
};
