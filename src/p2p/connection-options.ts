/** What one outbound P2P connection (peer-connection.ts) is told: the peer, the network's wire parameters, our limits. */
import type { PeerLimits } from './peer-limits.js';

export interface ConnectionOptions {
  readonly id: number;
  readonly host: string;
  readonly port: number;
  readonly configured: boolean;
  readonly magic: Uint8Array;
  readonly protocolVersion: number;
  /** Ask for transactions with their witnesses (segwit coins). */
  readonly witness: boolean;
  readonly mweb: boolean;
  readonly userAgent: string;
  readonly startHeight: () => number;
  readonly limits: PeerLimits;
  readonly nowMs: () => number;
}
