/** Public API of network parameters, scripts and addresses (one import for other layers). */
export { ALL_NETWORK_PARAMS, BTC_TESTNET4_GENESIS_HASH, getNetworkParams, knownGenesisHashes, p2pMagicFor } from './networks.js';
export type { ChainFeatures, NetworkParams, ZmqTopic } from './network-params.js';
export { ZMQ_TOPICS } from './network-params.js';
export { classifyScript, getP2pkPubkey, getWitnessProgram, type ScriptType, type WitnessProgram } from './script/classify.js';
export { scriptToAsm, type AsmOptions } from './script/asm.js';
export { getOpName } from './script/opcodes.js';
export { readScript, type ScriptOp } from './script/script-reader.js';
export {
  addressToScript,
  decodeAddress,
  displayAddress,
  isValidAddress,
  pubkeyToP2pkhAddress,
  scriptToAddress,
  type AddressKind,
  type DecodedAddress,
} from './address/address.js';
export { decodeMwebAddress, encodeMwebAddress, type StealthAddress } from './address/mweb-address.js';
