import { bool, num, obj } from '../../shared/schema-kit.js';
import { int, str, V3P, v3Params, v3Route } from './v3-schema-kit.js';

const rate = (what: string) => ({ ...num, description: `${what}, in the coin's smallest unit per virtual byte (decimals below 1 allowed)` });

export const feeEstimatesSchema = v3Route({
  summary: 'Fee rates for the next block, half an hour, an hour and a day, and the minimum that enters the mempool',
  tag: 'network',
  params: v3Params({ network: V3P.network }, ['network']),
  data: obj({
    fastest: rate('To be in the next block'),
    half_hour: rate('Within 30 minutes'),
    hour: rate('Within an hour'),
    economy: rate('Within a day'),
    minimum: rate("The node's relay fee (or its mempool minimum when higher): below it a tx is not relayed"),
    unit: { ...str, description: 'e.g. "sat/vB", "litoshi/vB", "koinu/vB"' },
    targets: obj({ fastest: int, half_hour: int, hour: int, economy: int }),
    node_estimates: { ...bool, description: "Whether the node's estimatesmartfee took part (false: from the mempool projection and relay fee alone)" },
    updated_at: { ...int, description: 'UNIX seconds of the mempool snapshot' },
  }),
});
