/**
 * blockchain.headers.subscribe of one network: after blocks (or a reorg) the new tip's header goes to every subscriber,
 * once per tip (blocks connected in one batch announce their last one, which the protocol allows: clients fetch what
 * they missed). The network's fee estimates are dropped first, as the protocol asks of a cache of them.
 */
import type { Logger } from '../../core/infrastructure/logger.js';
import type { ElectrumNetworkServices } from '../../services/electrum/electrum-services.js';
import { notificationMessage } from '../protocol/json-rpc.js';
import type { ElectrumChange } from './electrum-changes.js';
import type { StatusSubscriber } from './status-subscriptions.js';

export class HeaderSubscriptions {
  readonly subscribers = new Set<StatusSubscriber>();
  private lastHex: string | null = null;
  private pending = false;
  private again = false;

  constructor(private readonly net: ElectrumNetworkServices, private readonly logger: Logger) {}

  add(subscriber: StatusSubscriber): void {
    this.subscribers.add(subscriber);
  }

  remove(subscriber: StatusSubscriber): void {
    this.subscribers.delete(subscriber);
  }

  onChange(change: ElectrumChange): void {
    if (change.kind === 'reorg') this.net.chain.proofs.invalidateFrom(change.height);
    if (change.kind !== 'block' && change.kind !== 'reorg') return;
    this.net.fees.onBlock();
    if (this.pending) {
      this.again = true;
      return;
    }
    this.pending = true;
    setImmediate(() => void this.announce());
  }

  private async announce(): Promise<void> {
    try {
      const tip = await this.net.chain.tip();
      if (!tip || tip.hex === this.lastHex) return;
      this.lastHex = tip.hex;
      if (this.subscribers.size === 0) return;
      const message = notificationMessage('blockchain.headers.subscribe', JSON.stringify([tip]));
      for (const subscriber of this.subscribers) subscriber.notify(message);
    } catch (error) {
      this.logger.warn('electrum: new tip not announced', { network: this.net.id, error: (error as Error).message });
    } finally {
      // A block that arrived while the tip was read is announced by another round.
      if (this.again) {
        this.again = false;
        setImmediate(() => void this.announce());
      } else {
        this.pending = false;
      }
    }
  }
}
