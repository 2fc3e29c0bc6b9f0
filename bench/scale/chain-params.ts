/** The network the synthetic chain is made for: Bitcoin regtest (API acronym BTCTEST, bech32 hrp bcrt). */
import { getNetworkParams } from '../../src/chains/networks.js';

export const params = getNetworkParams('BTCTEST', 'regtest');
