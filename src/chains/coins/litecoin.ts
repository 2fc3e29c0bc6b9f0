import type { CoinParams } from '../coin-params.js';
import { MAX_BLOCK_WEIGHT, SEQUENCE_ZMQ, TX_PROPAGATION_SECONDS } from '../network-constants.js';
import type { NetworkParams } from '../network-params.js';
import { LITECOIN_MAIN_KEYS, LITECOIN_TEST_KEYS } from '../wallet/extended-key-versions.js';

/*
 * Litecoin: Litecoin Core's chainparams (litecoin-project/litecoin), checked against the genesis fixtures. A regtest
 * node answers as LTCTEST at the API but keeps its own genesis, ports and bech32 hrp.
 */

/**
 * What every Litecoin network shares: segwit and MWEB extension blocks; Litecoin Core 0.21 speaks P2P protocol 70016
 * and publishes `sequence`.
 */
const LITECOIN_NETWORK = {
  coin: 'LTC',
  targetSpacing: 150,
  coinbaseMaturity: 100,
  p2pProtocolVersion: 70016,
  txPropagationSeconds: TX_PROPAGATION_SECONDS,
  maxBlockWeight: MAX_BLOCK_WEIGHT,
  features: { segwit: true, mweb: true, auxpow: false },
  zmqTopics: SEQUENCE_ZMQ,
  smartFeeFromVersion: 0,
} as const;

/**
 * Litecoin encodes P2SH with version 50 (`M…`) but Core still decodes the deprecated
 * version 5 (`3…`, SCRIPT_ADDRESS) form, so both are accepted and 50 comes first.
 */
export const LTC_MAIN: NetworkParams = Object.freeze({
  ...LITECOIN_NETWORK,
  id: 'LTC',
  chain: 'main',
  name: 'Litecoin',
  pubkeyHashVersion: 48,
  scriptHashVersions: [50, 5],
  wifVersion: 176,
  bech32Hrp: 'ltc',
  mwebHrp: 'ltcmweb',
  genesisHash: '12a765e31ffd4059bada1e25190f6e98c99d9714d334efa41a195a7e7e04bfe2',
  defaultRpcPort: 9332,
  defaultP2pPort: 9333,
  p2pMagic: 'fbc0b6db',
  extendedKeys: LITECOIN_MAIN_KEYS,
});

/** Litecoin testnet (called "testnet4" in Litecoin's code; unrelated to Bitcoin's testnet4). */
export const LTC_TEST: NetworkParams = Object.freeze({
  ...LITECOIN_NETWORK,
  id: 'LTCTEST',
  chain: 'test',
  name: 'Litecoin Testnet',
  pubkeyHashVersion: 111,
  scriptHashVersions: [58, 196],
  wifVersion: 239,
  bech32Hrp: 'tltc',
  mwebHrp: 'tmweb',
  genesisHash: '4966625a4b2851d9fdee139e56211a0d88575f59ed816ff5e6a63deb4e3e29a0',
  defaultRpcPort: 19332,
  defaultP2pPort: 19335,
  p2pMagic: 'fdd2c8f1',
  extendedKeys: LITECOIN_TEST_KEYS,
});

/** Litecoin regtest: testnet base58 versions, its own segwit hrp, and the testnet MWEB hrp (as in Litecoin Core). */
export const LTC_REGTEST: NetworkParams = Object.freeze({
  ...LITECOIN_NETWORK,
  id: 'LTCTEST',
  chain: 'regtest',
  name: 'Litecoin Regtest',
  pubkeyHashVersion: 111,
  scriptHashVersions: [58, 196],
  wifVersion: 239,
  bech32Hrp: 'rltc',
  mwebHrp: 'tmweb',
  genesisHash: '530827f38f93b43ed12af0b3ad25a288dc02ed74d6d7857862df51fc56c416f9',
  defaultRpcPort: 19443,
  defaultP2pPort: 19444,
  p2pMagic: 'fabfb5da',
  extendedKeys: LITECOIN_TEST_KEYS,
});

export const LITECOIN: CoinParams = Object.freeze({
  id: 'LTC',
  nodeSoftware: 'Litecoin Core',
  symbolHtml: '&#321;',
  site: 'https://litecoin.org/',
  // "litoshi", as v3's fee estimates have always said (the explorer said "lit" until both read it from here).
  baseUnit: 'litoshi',
  uriScheme: 'litecoin',
  priced: true,
  exchangeNames: {},
  networks: { main: LTC_MAIN, test: LTC_TEST, regtest: LTC_REGTEST },
});
