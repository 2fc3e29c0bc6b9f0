import type { NetworkId } from '../../../core/domain/network.js';

/**
 * Small integer per network stored in every network-scoped row. Fixed here (not derived from list order)
 * because the numbers are persisted: reordering NETWORK_IDS must never remap existing rows.
 */
const CODES: Readonly<Record<NetworkId, number>> = {
  BTC: 1,
  BTCTEST: 2,
  LTC: 3,
  LTCTEST: 4,
  DOGE: 5,
  DOGETEST: 6,
};

export function networkCode(id: NetworkId): number {
  return CODES[id];
}

/** The network of a stored code (rows read back). */
export function networkFromCode(code: number): NetworkId {
  const found = (Object.keys(CODES) as NetworkId[]).find((id) => CODES[id] === code);
  if (!found) throw new RangeError(`unknown network code ${code}`);
  return found;
}
