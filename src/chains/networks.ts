import { InvalidArgumentError } from '../core/domain/errors.js';
import type { ChainKind, CoinId, NetworkId } from '../core/domain/network.js';
import type { CoinParams } from './coin-params.js';
import { BITCOIN, BTC_TESTNET4_GENESIS_HASH, BTC_TESTNET4_P2P_MAGIC } from './coins/bitcoin.js';
import { DOGECOIN } from './coins/dogecoin.js';
import { LITECOIN } from './coins/litecoin.js';
import type { NetworkParams } from './network-params.js';

export { BTC_MAIN, BTC_REGTEST, BTC_TEST, BTC_TESTNET4_GENESIS_HASH } from './coins/bitcoin.js';
export { DOGE_MAIN, DOGE_REGTEST, DOGE_TEST } from './coins/dogecoin.js';
export { LTC_MAIN, LTC_REGTEST, LTC_TEST } from './coins/litecoin.js';

/**
 * Every coin, each in its params file (chains/coins/): its facts (CoinParams) and its networks' parameters, copied
 * from the coin's Core chainparams and checked against the genesis fixtures. Every list of coins or networks in the
 * program derives from this one (docs/architecture.md, "Adding a coin").
 */
export const COINS: readonly CoinParams[] = Object.freeze([BITCOIN, LITECOIN, DOGECOIN]);

/** The coin the v2 interface defaults to (get_price, get_info without one), first in the interface's list of networks. */
export const DEFAULT_COIN: CoinId = 'DOGE';

export function coinParams(coin: CoinId): CoinParams {
  const found = COINS.find((c) => c.id === coin);
  if (!found) throw new RangeError(`no coin ${coin}`);
  return found;
}

/** The facts of a network's coin. */
export function coinOf(params: NetworkParams): CoinParams {
  return coinParams(params.coin);
}

/** Coins that have a market value (their acronyms): test networks' coins (BTCTEST…) have none. */
export const PRICED_COINS: readonly CoinId[] = Object.freeze(COINS.filter((c) => c.priced).map((c) => c.id));

export function isPricedCoin(coin: string): coin is CoinId {
  return (PRICED_COINS as readonly string[]).includes(coin);
}

/** A fee rate's unit for the coin: its base unit per virtual byte ("litoshi/vB"). */
export function feeRateUnit(coin: CoinId): string {
  return `${coinParams(coin).baseUnit}/vB`;
}

/** The coin's name at an exchange (Kraken's XBT), or its acronym where the exchange uses that. */
export function exchangeName(coin: string, exchange: keyof CoinParams['exchangeNames']): string {
  return COINS.find((c) => c.id === coin)?.exchangeNames[exchange] ?? coin;
}

/** The network acronyms as the APIs' messages list them: the default coin's first, each main network before its test network. */
export const LISTED_NETWORKS: readonly NetworkId[] = Object.freeze(
  [coinParams(DEFAULT_COIN), ...COINS.filter((c) => c.id !== DEFAULT_COIN)].flatMap((c) => [c.networks.main.id, c.networks.test.id]),
);

export const ALL_NETWORK_PARAMS: readonly NetworkParams[] = Object.freeze(COINS.flatMap((c) => [c.networks.main, c.networks.test, c.networks.regtest]));

/** Mainnet ids have only 'main'; the *TEST ids have 'test' and 'regtest'. */
function defaultChain(id: NetworkId): ChainKind {
  return id.endsWith('TEST') ? 'test' : 'main';
}

export function getNetworkParams(id: NetworkId, chain: ChainKind = defaultChain(id)): NetworkParams {
  const found = ALL_NETWORK_PARAMS.find((p) => p.id === id && p.chain === chain);
  if (!found) throw new InvalidArgumentError('network', `network ${id} has no ${chain} chain`);
  return found;
}

/** The P2P magic of the chain whose genesis the node reported: BTCTEST is testnet3 or testnet4. */
export function p2pMagicFor(params: NetworkParams, genesisHash: string): string {
  return genesisHash === BTC_TESTNET4_GENESIS_HASH && params.coin === 'BTC' ? BTC_TESTNET4_P2P_MAGIC : params.p2pMagic;
}

/**
 * Genesis hashes a node of this network may report. Bitcoin's test acronym covers testnet3 and
 * testnet4 (identical address formats), so both genesis blocks are accepted there.
 */
export function knownGenesisHashes(params: NetworkParams): readonly string[] {
  if (params.coin === 'BTC' && params.chain === 'test') return [params.genesisHash, BTC_TESTNET4_GENESIS_HASH];
  return [params.genesisHash];
}
