/** The six network acronyms of the public interface, written as the spec writes them. */
export const NETWORK_IDS = ['BTC', 'BTCTEST', 'LTC', 'LTCTEST', 'DOGE', 'DOGETEST'] as const;
export type NetworkId = (typeof NETWORK_IDS)[number];

/** Which chain of a coin a network runs on. Regtest shares the test network's acronym at the API. */
export type ChainKind = 'main' | 'test' | 'regtest';

export type CoinId = 'BTC' | 'LTC' | 'DOGE';

export function isNetworkId(value: string): value is NetworkId {
  return (NETWORK_IDS as readonly string[]).includes(value);
}
