import type { CoinParams } from '../coin-params.js';
import { MAX_BLOCK_WEIGHT, TX_PROPAGATION_SECONDS } from '../network-constants.js';
import type { NetworkParams, ZmqTopic } from '../network-params.js';
import { DOGECOIN_MAIN_KEYS, DOGECOIN_TEST_KEYS } from '../wallet/extended-key-versions.js';

/* Dogecoin Core 1.14's chainparams (dogecoin/dogecoin), checked against the genesis fixtures. */

/** Dogecoin Core 1.14 publishes only hashblock/hashtx/rawblock/rawtx over ZMQ (no `sequence`). */
const DOGECOIN_ZMQ: readonly ZmqTopic[] = Object.freeze(['hashblock', 'hashtx']);
/** Dogecoin Core's fee estimation is unreliable before 1.14.7 (its release notes; docs/wallets.md, Fees). */
const RELIABLE_SMART_FEE = 1_140_700;

/*
 * What every Dogecoin network shares. Dogecoin Core has segwit code but never deployed it; blocks are merge-mined
 * (AuxPoW) since height 371337. Dogecoin Core 1.14 speaks P2P protocol 70015 (src/version.h).
 * Blocks are 1 MB (no segwit): 4,000,000 weight-equivalent.
 */
const DOGECOIN_NETWORK = {
  coin: 'DOGE',
  p2pProtocolVersion: 70015,
  txPropagationSeconds: TX_PROPAGATION_SECONDS,
  maxBlockWeight: MAX_BLOCK_WEIGHT,
  features: { segwit: false, mweb: false, auxpow: true },
  zmqTopics: DOGECOIN_ZMQ,
  smartFeeFromVersion: RELIABLE_SMART_FEE,
  bech32Hrp: null,
  mwebHrp: null,
} as const;

/*
 * Dogecoin coinbase maturity is 60 blocks before the Digishield fork (height 145000) and 240 after.
 * The API reports confirmations against the current rule, so 240 is used on main and test;
 * code judging pre-145000 coinbases exactly would need the height-dependent rule.
 */
export const DOGE_MAIN: NetworkParams = Object.freeze({
  ...DOGECOIN_NETWORK,
  id: 'DOGE',
  chain: 'main',
  name: 'Dogecoin',
  pubkeyHashVersion: 30,
  scriptHashVersions: [22],
  wifVersion: 158,
  genesisHash: '1a91e3dace36e2be3bf030a65679fe821aa1d6ef92e7c9902eb318182c355691',
  targetSpacing: 60,
  coinbaseMaturity: 240,
  defaultRpcPort: 22555,
  defaultP2pPort: 22556,
  p2pMagic: 'c0c0c0c0',
  extendedKeys: DOGECOIN_MAIN_KEYS,
});

export const DOGE_TEST: NetworkParams = Object.freeze({
  ...DOGECOIN_NETWORK,
  id: 'DOGETEST',
  chain: 'test',
  name: 'Dogecoin Testnet',
  pubkeyHashVersion: 113,
  scriptHashVersions: [196],
  wifVersion: 241,
  genesisHash: 'bb0a78264637406b6360aad926284d544d7049f45189db5664f3c4d07350559e',
  targetSpacing: 60,
  coinbaseMaturity: 240,
  defaultRpcPort: 44555,
  defaultP2pPort: 44556,
  p2pMagic: 'fcc1b7dc',
  extendedKeys: DOGECOIN_TEST_KEYS,
});

/**
 * Dogecoin Core 1.14 regtest: Bitcoin-testnet base58 versions (111/196, WIF 239, unlike
 * Dogecoin testnet's 113), 1-second target spacing, coinbase maturity 60, AuxPoW from height 20.
 */
export const DOGE_REGTEST: NetworkParams = Object.freeze({
  ...DOGECOIN_NETWORK,
  id: 'DOGETEST',
  chain: 'regtest',
  name: 'Dogecoin Regtest',
  pubkeyHashVersion: 111,
  scriptHashVersions: [196],
  wifVersion: 239,
  genesisHash: '3d2160a3b5dc4a9d62e7e66a295f70313ac808440ef7400d6c0772171ce973a5',
  targetSpacing: 1,
  coinbaseMaturity: 60,
  defaultRpcPort: 18332,
  defaultP2pPort: 18444,
  p2pMagic: 'fabfb5da',
  extendedKeys: DOGECOIN_TEST_KEYS,
});

export const DOGECOIN: CoinParams = Object.freeze({
  id: 'DOGE',
  nodeSoftware: 'Dogecoin Core',
  symbolHtml: '&#272;',
  site: 'https://dogecoin.com/',
  baseUnit: 'koinu',
  uriScheme: 'dogecoin',
  priced: true,
  exchangeNames: { kraken: 'XDG' },
  networks: { main: DOGE_MAIN, test: DOGE_TEST, regtest: DOGE_REGTEST },
});
