/**
 * Peer discovery for the P2P listener, from the node we index: the peers it is connected to outbound (`getpeerinfo`:
 * live, reachable, and listening on the address shown, unlike inbound peers whose port is ephemeral), then its
 * address book (`getnodeaddresses`, Core 0.18+ and Litecoin 0.21; Dogecoin Core 1.14 has no such call, -32601, so
 * its peers alone are used). Only IPv4 and IPv6 are offered: the listener has no Tor or I2P transport.
 */
import { RpcError, type PeerAddressSource } from '../core/index.js';
import type { RpcClient } from './rpc/rpc-client.js';

/** JSON-RPC "method not found". */
const RPC_METHOD_NOT_FOUND = -32601;
/** How many book entries to ask for: plenty to choose diverse /16s from, small enough for one quick reply. */
const BOOK_SAMPLE = 1_000;

interface PeerInfo {
  readonly addr?: unknown;
  readonly inbound?: unknown;
}

interface NodeAddress {
  readonly address?: unknown;
  readonly port?: unknown;
  readonly time?: unknown;
  readonly network?: unknown;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const IPV6 = /^[0-9a-fA-F:]+$/;

/** host:port for IPv4 and IPv6 literals; null for anything else (onion, i2p, cjdns, names). */
function format(host: string, port: number): string | null {
  if (!Number.isInteger(port) || port <= 0 || port > 65535) return null;
  if (IPV4.test(host)) return `${host}:${port}`;
  if (IPV6.test(host) && host.includes(':')) return `[${host}]:${port}`;
  return null;
}

/** getpeerinfo's `addr` is "1.2.3.4:8333" or "[2001:db8::1]:8333". */
function splitAddr(addr: string): { host: string; port: number } | null {
  const match = /^\[([^\]]+)\]:(\d+)$/.exec(addr) ?? /^([^:]+):(\d+)$/.exec(addr);
  return match ? { host: match[1]!, port: Number(match[2]) } : null;
}

export class NodePeerAddresses implements PeerAddressSource {
  constructor(private readonly rpc: RpcClient) {}

  async candidates(): Promise<string[]> {
    const out = new Set<string>();
    const peers = await this.rpc.call<PeerInfo[]>('getpeerinfo');
    for (const peer of Array.isArray(peers) ? peers : []) {
      if (peer.inbound !== false || typeof peer.addr !== 'string') continue;
      const split = splitAddr(peer.addr);
      const text = split && format(split.host, split.port);
      if (text) out.add(text);
    }
    for (const entry of await this.book()) {
      if (typeof entry.address !== 'string' || typeof entry.port !== 'number') continue;
      if (entry.network !== undefined && entry.network !== 'ipv4' && entry.network !== 'ipv6') continue;
      const text = format(entry.address, entry.port);
      if (text) out.add(text);
    }
    return [...out];
  }

  /** The node's address book, most recently seen first; empty on nodes without getnodeaddresses. */
  private async book(): Promise<NodeAddress[]> {
    try {
      const entries = await this.rpc.call<NodeAddress[]>('getnodeaddresses', [BOOK_SAMPLE]);
      if (!Array.isArray(entries)) return [];
      return [...entries].sort((a, b) => (typeof b.time === 'number' ? b.time : 0) - (typeof a.time === 'number' ? a.time : 0));
    } catch (err) {
      if (err instanceof RpcError && err.rpcCode === RPC_METHOD_NOT_FOUND) return [];
      throw err;
    }
  }
}
