import { InvalidArgumentError } from '../core/domain/errors.js';
import type { ChainKind, NetworkId } from '../core/domain/network.js';
import { DOGE_MAIN, DOGE_REGTEST, DOGE_TEST } from './dogecoin-networks.js';
import { MAX_BLOCK_WEIGHT, TX_PROPAGATION_SECONDS } from './network-constants.js';
import type { NetworkParams, ZmqTopic } from './network-params.js';
import { BITCOIN_MAIN_KEYS, BITCOIN_TEST_KEYS, LITECOIN_MAIN_KEYS, LITECOIN_TEST_KEYS } from './wallet/extended-key-versions.js';

export { DOGE_MAIN, DOGE_REGTEST, DOGE_TEST };

/*
 * Per-network parameters, copied from each coin's Core chainparams (bitcoin/bitcoin,
 * litecoin-project/litecoin, dogecoin/dogecoin 1.14) and checked against the genesis fixtures.
 * Regtest networks use their coin's test acronym at the API (a regtest node answers as
 * BTCTEST/LTCTEST/DOGETEST) but keep their own genesis, ports and bech32 hrp.
 */

const SEGWIT = { segwit: true, mweb: false, auxpow: false } as const;
/** Bitcoin Core / Knots and Litecoin Core 0.21+ publish `sequence`; Dogecoin Core 1.14 only hashblock/hashtx/rawblock/rawtx. */
const SEQUENCE_ZMQ: readonly ZmqTopic[] = Object.freeze(['sequence']);
/*
 * P2P protocol versions (each coin's PROTOCOL_VERSION in src/version.h): Bitcoin Core 0.21+ and Litecoin Core 0.21
 * speak 70016 (wtxid relay exists but is only used when both sides send `wtxidrelay`, which we never do), Dogecoin
 * Core 1.14 speaks 70015. Magic bytes: pchMessageStart in each coin's chainparams.cpp.
 */
const BITCOIN_PROTOCOL = 70016;
const LITECOIN_PROTOCOL = 70016;
const LITECOIN = { segwit: true, mweb: true, auxpow: false } as const;

export const BTC_MAIN: NetworkParams = Object.freeze({
  id: 'BTC',
  chain: 'main',
  coin: 'BTC',
  name: 'Bitcoin',
  pubkeyHashVersion: 0,
  scriptHashVersions: [5],
  wifVersion: 128,
  bech32Hrp: 'bc',
  mwebHrp: null,
  genesisHash: '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f',
  targetSpacing: 600,
  coinbaseMaturity: 100,
  defaultRpcPort: 8332,
  defaultP2pPort: 8333,
  p2pMagic: 'f9beb4d9',
  p2pProtocolVersion: BITCOIN_PROTOCOL,
  txPropagationSeconds: TX_PROPAGATION_SECONDS,
  maxBlockWeight: MAX_BLOCK_WEIGHT,
  features: SEGWIT,
  zmqTopics: SEQUENCE_ZMQ,
  extendedKeys: BITCOIN_MAIN_KEYS,
  baseUnit: 'sat',
  smartFeeFromVersion: 0,
});

/**
 * Bitcoin testnet3. testnet4 (BIP94) and signet share its address formats (111/196, hrp `tb`),
 * so one params object serves them for addresses; their genesis hashes differ (see
 * BTC_TESTNET4_GENESIS_HASH and knownGenesisHashes).
 */
export const BTC_TEST: NetworkParams = Object.freeze({
  id: 'BTCTEST',
  chain: 'test',
  coin: 'BTC',
  name: 'Bitcoin Testnet',
  pubkeyHashVersion: 111,
  scriptHashVersions: [196],
  wifVersion: 239,
  bech32Hrp: 'tb',
  mwebHrp: null,
  genesisHash: '000000000933ea01ad0ee984209779baaec3ced90fa3f408719526f8d77f4943',
  targetSpacing: 600,
  coinbaseMaturity: 100,
  defaultRpcPort: 18332,
  defaultP2pPort: 18333,
  p2pMagic: '0b110907',
  p2pProtocolVersion: BITCOIN_PROTOCOL,
  txPropagationSeconds: TX_PROPAGATION_SECONDS,
  maxBlockWeight: MAX_BLOCK_WEIGHT,
  features: SEGWIT,
  zmqTopics: SEQUENCE_ZMQ,
  extendedKeys: BITCOIN_TEST_KEYS,
  baseUnit: 'sat',
  smartFeeFromVersion: 0,
});

/** Genesis of Bitcoin testnet4 (BIP94; default ports 48332 RPC / 48333 P2P): same address formats as testnet3. */
export const BTC_TESTNET4_GENESIS_HASH = '00000000da84f2bafbbc53dee25a72ae507ff4914b867c565be350b0da8bf043';
/** Testnet4's P2P message start (its own, unlike its address formats). */
export const BTC_TESTNET4_P2P_MAGIC = '1c163f28';

export const BTC_REGTEST: NetworkParams = Object.freeze({
  id: 'BTCTEST',
  chain: 'regtest',
  coin: 'BTC',
  name: 'Bitcoin Regtest',
  pubkeyHashVersion: 111,
  scriptHashVersions: [196],
  wifVersion: 239,
  bech32Hrp: 'bcrt',
  mwebHrp: null,
  genesisHash: '0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206',
  targetSpacing: 600,
  coinbaseMaturity: 100,
  defaultRpcPort: 18443,
  defaultP2pPort: 18444,
  p2pMagic: 'fabfb5da',
  p2pProtocolVersion: BITCOIN_PROTOCOL,
  txPropagationSeconds: TX_PROPAGATION_SECONDS,
  maxBlockWeight: MAX_BLOCK_WEIGHT,
  features: SEGWIT,
  zmqTopics: SEQUENCE_ZMQ,
  extendedKeys: BITCOIN_TEST_KEYS,
  baseUnit: 'sat',
  smartFeeFromVersion: 0,
});

/**
 * Litecoin encodes P2SH with version 50 (`M…`) but Core still decodes the deprecated
 * version 5 (`3…`, SCRIPT_ADDRESS) form, so both are accepted and 50 comes first.
 */
export const LTC_MAIN: NetworkParams = Object.freeze({
  id: 'LTC',
  chain: 'main',
  coin: 'LTC',
  name: 'Litecoin',
  pubkeyHashVersion: 48,
  scriptHashVersions: [50, 5],
  wifVersion: 176,
  bech32Hrp: 'ltc',
  mwebHrp: 'ltcmweb',
  genesisHash: '12a765e31ffd4059bada1e25190f6e98c99d9714d334efa41a195a7e7e04bfe2',
  targetSpacing: 150,
  coinbaseMaturity: 100,
  defaultRpcPort: 9332,
  defaultP2pPort: 9333,
  p2pMagic: 'fbc0b6db',
  p2pProtocolVersion: LITECOIN_PROTOCOL,
  txPropagationSeconds: TX_PROPAGATION_SECONDS,
  maxBlockWeight: MAX_BLOCK_WEIGHT,
  features: LITECOIN,
  zmqTopics: SEQUENCE_ZMQ,
  extendedKeys: LITECOIN_MAIN_KEYS,
  baseUnit: 'litoshi',
  smartFeeFromVersion: 0,
});

/** Litecoin testnet (called "testnet4" in Litecoin's code; unrelated to Bitcoin's testnet4). */
export const LTC_TEST: NetworkParams = Object.freeze({
  id: 'LTCTEST',
  chain: 'test',
  coin: 'LTC',
  name: 'Litecoin Testnet',
  pubkeyHashVersion: 111,
  scriptHashVersions: [58, 196],
  wifVersion: 239,
  bech32Hrp: 'tltc',
  mwebHrp: 'tmweb',
  genesisHash: '4966625a4b2851d9fdee139e56211a0d88575f59ed816ff5e6a63deb4e3e29a0',
  targetSpacing: 150,
  coinbaseMaturity: 100,
  defaultRpcPort: 19332,
  defaultP2pPort: 19335,
  p2pMagic: 'fdd2c8f1',
  p2pProtocolVersion: LITECOIN_PROTOCOL,
  txPropagationSeconds: TX_PROPAGATION_SECONDS,
  maxBlockWeight: MAX_BLOCK_WEIGHT,
  features: LITECOIN,
  zmqTopics: SEQUENCE_ZMQ,
  extendedKeys: LITECOIN_TEST_KEYS,
  baseUnit: 'litoshi',
  smartFeeFromVersion: 0,
});

/** Litecoin regtest: testnet base58 versions, its own segwit hrp, and the testnet MWEB hrp (as in Litecoin Core). */
export const LTC_REGTEST: NetworkParams = Object.freeze({
  id: 'LTCTEST',
  chain: 'regtest',
  coin: 'LTC',
  name: 'Litecoin Regtest',
  pubkeyHashVersion: 111,
  scriptHashVersions: [58, 196],
  wifVersion: 239,
  bech32Hrp: 'rltc',
  mwebHrp: 'tmweb',
  genesisHash: '530827f38f93b43ed12af0b3ad25a288dc02ed74d6d7857862df51fc56c416f9',
  targetSpacing: 150,
  coinbaseMaturity: 100,
  defaultRpcPort: 19443,
  defaultP2pPort: 19444,
  p2pMagic: 'fabfb5da',
  p2pProtocolVersion: LITECOIN_PROTOCOL,
  txPropagationSeconds: TX_PROPAGATION_SECONDS,
  maxBlockWeight: MAX_BLOCK_WEIGHT,
  features: LITECOIN,
  zmqTopics: SEQUENCE_ZMQ,
  extendedKeys: LITECOIN_TEST_KEYS,
  baseUnit: 'litoshi',
  smartFeeFromVersion: 0,
});

export const ALL_NETWORK_PARAMS: readonly NetworkParams[] = Object.freeze([
  BTC_MAIN,
  BTC_TEST,
  BTC_REGTEST,
  LTC_MAIN,
  LTC_TEST,
  LTC_REGTEST,
  DOGE_MAIN,
  DOGE_TEST,
  DOGE_REGTEST,
]);

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
