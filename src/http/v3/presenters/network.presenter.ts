import type { AccountRecord } from '../../../core/store/account-store.js';
import { currentPeriodEnd } from '../../../services/accounts/account-service.js';
import type { NetworkStatus } from '../../../services/network/chain-summary-service.js';
import type { UsageCounts } from '../../../core/limits/usage-counter.js';
import { syncingData } from '../../shared/syncing.presenter.js';

export const networkInfoData = (s: NetworkStatus) => ({
  block_count: s.tip.height,
  best_block_hash: s.tip.hash,
  hashrate: s.hashrate.toString(),
  mempool: {
    mempool_txs: s.mempool.txCount,
    mempool_size: s.mempool.bytes,
    updated_at: s.mempool.updatedAt,
    blocks: s.mempool.blocks.map((b) => ({
      block_num: b.blockNum,
      min_fee_rate: b.minFeeRate,
      max_fee_rate: b.maxFeeRate,
      median_fee_rate: b.medianFeeRate,
      min_fee_rate_possible: b.minFeeRatePossible,
      weight: b.weight,
      size: b.size,
      num_txs: b.numTxs,
    })),
  },
  syncing: syncingData(s.syncing),
});

/** last_login_at is 0 until a dashboard records a login (this server has none yet). */
export function accountInfoData(account: AccountRecord, usage: UsageCounts, now: number) {
  return {
    last_login_at: account.lastLoginAt ?? 0,
    plan: {
      name: account.plan.name,
      max_daily_requests: account.plan.maxDailyRequests,
      // Additive: requests in flight at once (0 = no limit), the limit a 429 "too many concurrent requests" refers to.
      max_concurrent_requests: account.plan.maxConcurrentRequests,
      current_period_ends_at: currentPeriodEnd(account, now),
      will_renew_at_period_end: account.willRenew,
    },
    num_requests_used: { today: usage.today, yesterday: usage.yesterday },
  };
}
