import type { Command } from '../cli/command.js';
import { configOptions } from '../cli/config-option.js';
import { integerOption, planLine, withAccounts } from './account-admin.js';

export const plansCommand: Command = {
  name: 'plans',
  summary: 'create or change v3 plans (daily request quotas, concurrent requests)',
  help: `outpoint plans set NAME [--max-daily-requests N] [--max-concurrent-requests N] [--config FILE]
outpoint plans list [--config FILE]

set   creates plan NAME (--max-daily-requests required) or changes its limits; a limit
      not given stays as it is. --max-concurrent-requests: requests of one account in
      flight at once, across API processes (the spec's tiers are 8, 16, 32); 0 = no limit
      (the default). Accounts on the plan follow at once in new processes, within a few
      seconds in running API processes.
list  prints every plan.
`,
  options: { ...configOptions, 'max-daily-requests': { type: 'string' }, 'max-concurrent-requests': { type: 'string' } },
  async run(options, positionals) {
    const [action, name] = positionals;
    if (action === 'set') {
      if (!name) throw new Error('usage: outpoint plans set NAME [--max-daily-requests N] [--max-concurrent-requests N]');
      const daily = integerOption(options, 'max-daily-requests');
      const concurrent = integerOption(options, 'max-concurrent-requests');
      if (daily === undefined && concurrent === undefined) throw new Error('give --max-daily-requests and/or --max-concurrent-requests');
      const plan = await withAccounts(options, (accounts) =>
        accounts.setPlan(name, { ...(daily !== undefined ? { maxDailyRequests: daily } : {}), ...(concurrent !== undefined ? { maxConcurrentRequests: concurrent } : {}) }));
      process.stdout.write(`plan ${planLine(plan)}\n`);
      return 0;
    }
    if (action === 'list') {
      const plans = await withAccounts(options, (accounts) => accounts.listPlans());
      for (const plan of plans) process.stdout.write(`${planLine(plan).replace(': ', '\t')}\n`);
      return 0;
    }
    process.stderr.write(this.help);
    return 2;
  },
};
