import type { FeeEstimates } from '../../../services/fees/fee-service.js';

export const feeEstimatesData = (f: FeeEstimates) => ({
  fastest: f.rates.fastest,
  half_hour: f.rates.halfHour,
  hour: f.rates.hour,
  economy: f.rates.economy,
  minimum: f.rates.minimum,
  unit: f.unit,
  targets: { fastest: f.targets.fastest, half_hour: f.targets.halfHour, hour: f.targets.hour, economy: f.targets.economy },
  node_estimates: f.nodeEstimates,
  updated_at: f.updatedAt,
});
