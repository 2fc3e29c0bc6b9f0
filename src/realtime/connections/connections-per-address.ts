/**
 * Websockets open per client address (`[realtime] max_connections_per_ip`): one address cannot take the whole
 * server's connection budget. An address has an entry only while it has a connection, so the map holds at most as
 * many entries as there are open connections (bounded by `maxConnections`).
 */
export class ConnectionsPerAddress {
  private readonly open = new Map<string, number>();

  /** @param limit per address; 0 = no limit (nothing is counted). */
  constructor(private readonly limit: number) {}

  /** Counts a connection from `address`; false (and nothing counted) when the address is at its limit. */
  tryAdd(address: string): boolean {
    if (this.limit === 0) return true;
    const count = this.open.get(address) ?? 0;
    if (count >= this.limit) return false;
    this.open.set(address, count + 1);
    return true;
  }

  /** The connection counted by a successful tryAdd has closed. */
  remove(address: string): void {
    if (this.limit === 0) return;
    const count = this.open.get(address) ?? 0;
    if (count <= 1) this.open.delete(address);
    else this.open.set(address, count - 1);
  }

  /** Addresses with a connection open (tests: the bound). */
  get addresses(): number {
    return this.open.size;
  }
}
