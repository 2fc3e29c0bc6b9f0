import type { AccountServices, Services } from '../../services/create-services.js';

/** What every v3 route module receives: the one service set, and its account domain (v3 is served only with it). */
export interface V3Context {
  readonly services: Services;
  readonly accounts: AccountServices;
  /** UNIX seconds. */
  readonly now: () => number;
}
