/**
 * A real pusher-js client (the official one, as users run it) subscribed to the network's blockchain channel
 * (`tx_update` for every mempool tx, `block_update` for every block) and to the watched addresses' channels (`balance_update` for the payment each
 * tx makes to one of them): when each txid first arrived on each, in ms since the epoch (this process's clock,
 * which is the stand-in node's: same machine).
 */
import { connected, pusherClient, subscribed, type Pusher } from '../../test/helpers/pusher-clients.js';

const nowMs = (): number => performance.timeOrigin + performance.now();

export class RealtimeWatch {
  /** txid → arrival of its tx_update on blockchain_update_<network>. */
  readonly txUpdates = new Map<string, number>();
  /** txid → arrival of the first balance_update naming it on a watched address channel. */
  readonly balanceUpdates = new Map<string, number>();
  /** block hash → arrival of its block_update on blockchain_update_<network>. */
  readonly blockUpdates = new Map<string, number>();
  private constructor(private readonly pusher: Pusher) {}

  static async open(port: number, key: string, network: string, addresses: readonly string[]): Promise<RealtimeWatch> {
    const watch = new RealtimeWatch(pusherClient(port, key));
    await connected(watch.pusher, 30_000);
    const slug = network.toLowerCase();
    const blockchain = await subscribed(watch.pusher, `blockchain_update_${slug}`, 30_000);
    blockchain.bind('tx_update', (data: { value?: { txid?: string } }) => {
      const txid = data.value?.txid;
      if (txid && !watch.txUpdates.has(txid)) watch.txUpdates.set(txid, nowMs());
    });
    blockchain.bind('block_update', (data: { value?: { blockhash?: string } }) => {
      const hash = data.value?.blockhash;
      if (hash && !watch.blockUpdates.has(hash)) watch.blockUpdates.set(hash, nowMs());
    });
    const channels = await Promise.all(addresses.map((a) => subscribed(watch.pusher, `address_${slug}_${a}`, 30_000)));
    for (const channel of channels) {
      channel.bind('balance_update', (data: { value?: { tx?: { txid?: string } } }) => {
        const txid = data.value?.tx?.txid;
        if (txid && !watch.balanceUpdates.has(txid)) watch.balanceUpdates.set(txid, nowMs());
      });
    }
    return watch;
  }

  close(): void {
    this.pusher.disconnect();
  }
}
