import type { ChannelSpec } from './channel-names.js';
import type { WireFrame } from '../protocol/protocol-messages.js';
import type { SendBatch, DirectTarget } from '../sending/send-batch.js';

/** What the registry delivers to: a connection, or anything that can take a frame. */
export interface Subscriber extends DirectTarget {
  /** False when the frame was not written (socket closing, or dropped for a slow consumer). */
  deliver(frame: WireFrame): boolean;
}

interface Channel {
  readonly spec: ChannelSpec;
  readonly subscribers: Set<Subscriber>;
}

/**
 * Who listens to what, in this process. A channel exists while it has subscribers, so mapping an
 * event costs nothing when nobody listens. Address channels are also indexed by script so an
 * address event finds every spelling of its address in one lookup.
 */
export class ChannelRegistry {
  private readonly channels = new Map<string, Channel>();
  private readonly byScript = new Map<string, Set<string>>();
  private subscriptionCount = 0;
  private readonly byKind = new Map<ChannelSpec['kind'], number>();

  /** @param batch how a frame reaches the subscribers that can take it directly. */
  constructor(private readonly batch: SendBatch) {}

  /** True if the subscriber was not already on the channel. */
  subscribe(subscriber: Subscriber, name: string, spec: ChannelSpec): boolean {
    let channel = this.channels.get(name);
    if (!channel) {
      channel = { spec, subscribers: new Set() };
      this.channels.set(name, channel);
      if (spec.kind === 'address') {
        let names = this.byScript.get(spec.scriptKey);
        if (!names) this.byScript.set(spec.scriptKey, (names = new Set()));
        names.add(name);
      }
    }
    if (channel.subscribers.has(subscriber)) return false;
    channel.subscribers.add(subscriber);
    this.subscriptionCount++;
    this.byKind.set(spec.kind, (this.byKind.get(spec.kind) ?? 0) + 1);
    return true;
  }

  unsubscribe(subscriber: Subscriber, name: string): void {
    const channel = this.channels.get(name);
    if (!channel?.subscribers.delete(subscriber)) return;
    this.subscriptionCount--;
    this.byKind.set(channel.spec.kind, this.byKind.get(channel.spec.kind)! - 1);
    if (channel.subscribers.size > 0) return;
    this.channels.delete(name);
    if (channel.spec.kind === 'address') {
      const names = this.byScript.get(channel.spec.scriptKey);
      names?.delete(name);
      if (names?.size === 0) this.byScript.delete(channel.spec.scriptKey);
    }
  }

  has(name: string): boolean {
    return this.channels.has(name);
  }

  /** Names of the address channels (every spelling) watching this script key. */
  addressChannels(scriptKey: string): ReadonlySet<string> | undefined {
    return this.byScript.get(scriptKey);
  }

  spec(name: string): ChannelSpec | undefined {
    return this.channels.get(name)?.spec;
  }

  /** Writes one pre-encoded frame to every subscriber; returns how many took it. */
  publish(name: string, frame: WireFrame): { delivered: number; dropped: number } {
    const channel = this.channels.get(name);
    let delivered = 0;
    let dropped = 0;
    if (!channel) return { delivered, dropped };
    // Set iteration tolerates deletions, should a subscriber leave while we write.
    for (const subscriber of channel.subscribers) {
      const fd = subscriber.directFd();
      if (fd >= 0) this.batch.add(subscriber, fd);
      else if (subscriber.deliver(frame)) delivered++;
      else dropped++;
    }
    delivered += this.batch.flush(frame);
    return { delivered, dropped };
  }

  get channelCount(): number {
    return this.channels.size;
  }

  get subscriptions(): number {
    return this.subscriptionCount;
  }

  /** Subscriptions per channel family (address, blockchain, ticker). */
  subscriptionsByKind(): Record<ChannelSpec['kind'], number> {
    return { address: this.byKind.get('address') ?? 0, blockchain: this.byKind.get('blockchain') ?? 0, ticker: this.byKind.get('ticker') ?? 0, wallet: this.byKind.get('wallet') ?? 0 };
  }
}
