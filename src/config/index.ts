export { loadConfig, type LoadOptions } from './config-loader.js';
export type { ElectrumConfig, NetworkConfig, OutpointConfig } from './config-types.js';
export { NETWORK_KEYS, SECTION_KEYS, TOP_LEVEL_KEYS } from './config-schema.js';
