import type { CoinParams } from '../coin-params.js';
import { MAX_BLOCK_WEIGHT, SEQUENCE_ZMQ, TX_PROPAGATION_SECONDS } from '../network-constants.js';
import type { NetworkParams } from '../network-params.js';
import { BITCOIN_MAIN_KEYS, BITCOIN_TEST_KEYS } from '../wallet/extended-key-versions.js';

/*
 * Bitcoin: Bitcoin Core's chainparams (bitcoin/bitcoin), checked against the genesis fixtures. A regtest node answers
 * as BTCTEST at the API but keeps its own genesis, ports and bech32 hrp.
 */

/** What every Bitcoin network shares. Bitcoin Core 0.21+ (and Knots) speak P2P protocol 70016 and publish `sequence`. */
const BITCOIN_NETWORK = {
  coin: 'BTC',
  targetSpacing: 600,
  coinbaseMaturity: 100,
  p2pProtocolVersion: 70016,
  txPropagationSeconds: TX_PROPAGATION_SECONDS,
  maxBlockWeight: MAX_BLOCK_WEIGHT,
  features: { segwit: true, mweb: false, auxpow: false },
  zmqTopics: SEQUENCE_ZMQ,
  smartFeeFromVersion: 0,
  mwebHrp: null,
} as const;

export const BTC_MAIN: NetworkParams = Object.freeze({
  ...BITCOIN_NETWORK,
  id: 'BTC',
  chain: 'main',
  name: 'Bitcoin',
  pubkeyHashVersion: 0,
  scriptHashVersions: [5],
  wifVersion: 128,
  bech32Hrp: 'bc',
  genesisHash: '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f',
  defaultRpcPort: 8332,
  defaultP2pPort: 8333,
  p2pMagic: 'f9beb4d9',
  extendedKeys: BITCOIN_MAIN_KEYS,
});

/**
 * Bitcoin testnet3. testnet4 (BIP94) and signet share its address formats (111/196, hrp `tb`),
 * so one params object serves them for addresses; their genesis hashes differ (see
 * BTC_TESTNET4_GENESIS_HASH and knownGenesisHashes).
 */
export const BTC_TEST: NetworkParams = Object.freeze({
  ...BITCOIN_NETWORK,
  id: 'BTCTEST',
  chain: 'test',
  name: 'Bitcoin Testnet',
  pubkeyHashVersion: 111,
  scriptHashVersions: [196],
  wifVersion: 239,
  bech32Hrp: 'tb',
  genesisHash: '000000000933ea01ad0ee984209779baaec3ced90fa3f408719526f8d77f4943',
  defaultRpcPort: 18332,
  defaultP2pPort: 18333,
  p2pMagic: '0b110907',
  extendedKeys: BITCOIN_TEST_KEYS,
});

/** Genesis of Bitcoin testnet4 (BIP94; default ports 48332 RPC / 48333 P2P): same address formats as testnet3. */
export const BTC_TESTNET4_GENESIS_HASH = '00000000da84f2bafbbc53dee25a72ae507ff4914b867c565be350b0da8bf043';
/** Testnet4's P2P message start (its own, unlike its address formats). */
export const BTC_TESTNET4_P2P_MAGIC = '1c163f28';

export const BTC_REGTEST: NetworkParams = Object.freeze({
  ...BITCOIN_NETWORK,
  id: 'BTCTEST',
  chain: 'regtest',
  name: 'Bitcoin Regtest',
  pubkeyHashVersion: 111,
  scriptHashVersions: [196],
  wifVersion: 239,
  bech32Hrp: 'bcrt',
  genesisHash: '0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206',
  defaultRpcPort: 18443,
  defaultP2pPort: 18444,
  p2pMagic: 'fabfb5da',
  extendedKeys: BITCOIN_TEST_KEYS,
});

export const BITCOIN: CoinParams = Object.freeze({
  id: 'BTC',
  nodeSoftware: 'Bitcoin Core (or Knots)',
  symbolHtml: '&#3647;',
  site: 'https://bitcoin.org/',
  baseUnit: 'sat',
  uriScheme: 'bitcoin',
  priced: true,
  exchangeNames: { kraken: 'XBT' },
  networks: { main: BTC_MAIN, test: BTC_TEST, regtest: BTC_REGTEST },
});
