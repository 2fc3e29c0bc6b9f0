import type { NetworkId } from '../../core/domain/network.js';
import { pathOf } from '../shell/html.js';

/** Networks are written in lower case in explorer URLs (/ltc, /dogetest), as in realtime channel names. */
export function netSlug(id: NetworkId): string {
  return id.toLowerCase();
}

export const networkPath = (id: NetworkId): string => pathOf(netSlug(id));
export const blockPath = (id: NetworkId, hashOrHeight: string | number): string => pathOf(netSlug(id), 'block', hashOrHeight);
export const txPath = (id: NetworkId, txid: string): string => pathOf(netSlug(id), 'tx', txid);
export const outputPath = (id: NetworkId, txid: string, vout: number): string => `${txPath(id, txid)}#out-${vout}`;
export const inputPath = (id: NetworkId, txid: string, vin: number): string => `${txPath(id, txid)}#in-${vin}`;
export const addressPath = (id: NetworkId, address: string): string => pathOf(netSlug(id), 'address', address);
export const addressShortPath = (id: NetworkId, address: string): string => `${addressPath(id, address)}/short`;
export const addressCsvPath = (id: NetworkId, address: string): string => `${addressPath(id, address)}/history.csv`;
/** A wallet (extended public key or descriptor) as one percent-encoded segment. */
export const walletPath = (id: NetworkId, wallet: string): string => pathOf(netSlug(id), 'xpub', wallet);
export const mempoolPath = (id: NetworkId): string => pathOf(netSlug(id), 'mempool');
export const shortLinkPath = (id: NetworkId, short: string): string => pathOf('s', id, short);
