import type { ZmqTopic } from './network-params.js';

/** Values every supported coin shares (they share Bitcoin Core's consensus limits and relay code). */

/** Every segwit chain's consensus limit; also the weight-equivalent of a 1,000,000-byte legacy block (4 WU/byte). */
export const MAX_BLOCK_WEIGHT = 4_000_000;

/**
 * Core-derived nodes announce new transactions to inbound peers (our listener is one) on a Poisson timer averaging
 * 5 s, to outbound peers every 2 s; a tx crosses a few hops before most nodes have it. 10 s covers both for nearly
 * every tx on every supported coin (they share Bitcoin Core's relay code), so one value serves all of them.
 */
export const TX_PROPAGATION_SECONDS = 10;

/** Bitcoin Core / Knots and Litecoin Core 0.21+ publish `sequence` (ordered block and mempool events, removals included). */
export const SEQUENCE_ZMQ: readonly ZmqTopic[] = Object.freeze(['sequence']);
