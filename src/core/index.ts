export * from './errors.js';
export * from './network.js';
export * from './money.js';
export * from './chain-types.js';
