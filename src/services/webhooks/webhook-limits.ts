import { ConfigError } from '../../core/domain/errors.js';

/** Per plan: how many hooks an account may hold and how many deliveries it may be sent per UTC day (docs/webhooks.md). */
export interface WebhookPlanLimits {
  readonly maxHooks: number;
  readonly deliveriesPerDay: number;
}

export class WebhookLimits {
  private readonly byPlan: ReadonlyMap<string, WebhookPlanLimits>;

  /** `planLimits`: `[webhooks] plan_limits` entries `plan:max_hooks:deliveries_per_day`; other plans get the defaults. */
  /** `maxWalletHooks`: wallet hooks all accounts may hold together (`[webhooks] max_wallet_hooks`; 0: none). */
  constructor(private readonly defaults: WebhookPlanLimits, planLimits: readonly string[], readonly maxWalletHooks = 1000) {
    this.byPlan = new Map(planLimits.map((entry) => {
      const match = /^([^:\s]+):(\d{1,9}):(\d{1,12})$/.exec(entry);
      if (!match) throw new ConfigError(`[webhooks] plan_limits: "${entry.slice(0, 80)}" is not plan:max_hooks:deliveries_per_day`);
      return [match[1]!, { maxHooks: Number(match[2]), deliveriesPerDay: Number(match[3]) }];
    }));
  }

  of(plan: string): WebhookPlanLimits {
    return this.byPlan.get(plan) ?? this.defaults;
  }
}
