import { syncingSchema } from '../../shared/syncing.schema.js';
import { arr, num, obj } from '../../shared/schema-kit.js';
import { int, priceObject, str, V3P, v3Fail, v3Params, v3Route } from './v3-schema-kit.js';

export const priceSchema = v3Route({
  summary: 'USD price of the coin at or before a UNIX time (default now); value "0.00000000" and updated_at 0 when none is known',
  tag: 'market',
  params: v3Params({ network: V3P.network, timestamp: V3P.timestamp }, ['network']),
  data: priceObject,
});

const mempoolBlock = obj({
  block_num: int, min_fee_rate: num, max_fee_rate: num, median_fee_rate: num, min_fee_rate_possible: num, weight: int, size: int, num_txs: int,
});

export const networkInfoSchema = v3Route({
  summary: 'Tip, hash rate and the mempool with its projection into the next 6 blocks',
  tag: 'network',
  params: v3Params({ network: V3P.network }, ['network']),
  data: obj({
    block_count: int, best_block_hash: str, hashrate: str,
    mempool: obj({ mempool_txs: int, mempool_size: int, updated_at: int, blocks: arr(mempoolBlock) }),
    syncing: syncingSchema,
  }),
});

const accountData = {
  last_login_at: int,
  plan: obj({ name: str, max_daily_requests: int, max_concurrent_requests: int, current_period_ends_at: int, will_renew_at_period_end: { type: 'boolean' } }),
  num_requests_used: obj({ today: int, yesterday: int }),
};

/** The reference response has no envelope: the fields are given both inside `data` and at the top level. */
export const accountInfoSchema = {
  summary: 'The calling account: plan and requests used today and yesterday (UTC)',
  tags: ['account'],
  response: {
    200: obj({ status: { type: 'string', enum: ['success'] }, data: obj(accountData), ...accountData }),
    '4xx': v3Fail,
    // The store can be down here too (503): the same body, so the OpenAPI document lists it like every route's.
    '5xx': v3Fail,
  },
};
