import type { DomainEvent } from '../../core/domain/events.js';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { NetworkId } from '../../core/domain/network.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import type { AccountStore } from '../../core/store/account-store.js';
import type { NewDelivery, TxWatch, Webhook, WebhookStore } from '../../core/store/webhook-store.js';
import { EVENT_CATALOGUE, kindOf } from '../events/catalogue/event-catalogue.js';
import { addressKey } from '../events/catalogue/event-channels.js';
import { isWebhookType, webhookTypeOf } from '../events/catalogue/webhook-types.js';
import { QueueBound } from '../events/queue-bound.js';
import { DeliveryBudget } from './webhook-budget.js';
import type { WebhookIndex } from './webhook-index.js';
import type { WebhookLimits } from './webhook-limits.js';
import { deliveryId } from './webhook-signing.js';
import { walletIdOf } from './webhook-index.js';
import { txDepth, walletWatchDecision, watchDecision } from './webhook-watches.js';

/** What makes a double spend's delivery one (a hook hears of each double spend of a tx once). */
function doubleSpendKey(ds: { readonly txid: string; readonly reason: string; readonly conflictingTxids: readonly string[] }): string {
  return `ds:${ds.txid}:${ds.reason}:${[...ds.conflictingTxids].sort().join(',')}`;
}

/**
 * Events to deliveries (docs/webhooks.md, Events), in the process that publishes them (one writer per network), in
 * order. Deliveries are stored before any attempt, with ids derived from hook and event (a replayed event adds
 * nothing); then the dispatcher is told. Depth (confirmations, reorgs) is judged at each connected or disconnected
 * block from the store, for every tx a hook watches.
 */
export class WebhookMatcher {
  private queue: DomainEvent[] = [];
  private running: Promise<void> | null = null;
  /** Publishers waiting in absorbed() for the queue to come down to its bound. */
  private readonly bound = new QueueBound();
  private readonly budget: DeliveryBudget;

  constructor(
    private readonly store: WebhookStore,
    private readonly index: WebhookIndex,
    private readonly readers: ReadonlyMap<NetworkId, NetworkReader>,
    accounts: AccountStore,
    limits: WebhookLimits,
    private readonly onStored: () => void,
    private readonly logger: Logger,
    private readonly nowMs: () => number = Date.now,
  ) {
    this.budget = new DeliveryBudget(store, accounts, limits, logger, nowMs);
  }

  /** Called for every event this process publishes; takes up those whose kind can make deliveries (the event catalogue's). */
  readonly onEvent = (event: DomainEvent): void => {
    if (kindOf(event).webhooks.length === 0 || !('network' in event) || !this.readers.has(event.network)) return;
    this.queue.push(event);
    this.running ??= this.process();
  };

  /** Whether the account may still be given deliveries today (the wallet watcher stops its work for it when not). */
  readonly accountOpen = (accountId: number): Promise<boolean> => this.budget.open(accountId);

  /** Resolves once at most MAX_QUEUED_EVENTS wait to be matched: the publisher's back-pressure (core EventBus.absorbed). */
  absorbed(maxQueued?: number): Promise<void> {
    return this.bound.within(this.queue.length, maxQueued);
  }

  async drain(): Promise<void> {
    while (this.running) await this.running;
  }

  private async process(): Promise<void> {
    while (this.queue.length > 0) {
      const events = this.queue;
      this.queue = [];
      try {
        const index = await this.index.fresh();
        const deliveries: NewDelivery[] = [];
        const watches: { watch: TxWatch; network: NetworkId; delivery: string }[] = [];
        for (const event of events) await this.match(event, index, deliveries, watches);
        const allowed = await this.withinBudget(deliveries, index);
        // A watch follows its delivery: none for a delivery the budget dropped (no work past the budget).
        const kept = new Set(allowed.map((d) => d.id));
        for (const { watch, network, delivery } of watches) if (kept.has(delivery)) await this.store.watch(watch, network);
        if (allowed.length > 0 && (await this.store.enqueue(allowed, this.nowMs())) > 0) this.onStored();
      } catch (error) {
        this.logger.error('webhooks: matching events failed; these events make no deliveries', { events: events.length, error: error instanceof Error ? error.message : String(error) });
      }
      this.bound.shrunkTo(this.queue.length);
    }
    this.running = null;
  }

  private async match(event: DomainEvent, index: WebhookIndex, out: NewDelivery[], watches: { watch: TxWatch; network: NetworkId; delivery: string }[]): Promise<void> {
    switch (event.kind) {
      case 'address_touched':
        for (const hook of index.forScript(event.network, addressKey(event.delta.script))) {
          if (hook.event !== 'address' || !(await this.budget.allows(hook.accountId))) continue;
          const confirmations = event.confirmed ? await txDepth(this.readers.get(event.network)!, event.txid) : 0;
          const delivery = this.delivery(hook, `${event.txid}:${confirmations}`, EVENT_CATALOGUE.address_touched.webhookBody(event, hook, confirmations));
          out.push(delivery);
          watches.push({ network: event.network, watch: { hookId: hook.id, txid: event.txid, target: 1, delivered: confirmations }, delivery: delivery.id });
        }
        return;
      case 'block_connected':
        for (const hook of index.forBlocks(event.network)) {
          out.push(this.delivery(hook, event.hash, EVENT_CATALOGUE.block_connected.webhookBody(event)));
        }
        await this.judgeWatches(event.network, index, out, event.hash);
        return;
      case 'block_disconnected':
        await this.judgeWatches(event.network, index, out, `-${event.hash}`);
        return;
      case 'wallet_touched':
        for (const hook of index.forWallet(event.network, event.wallet)) {
          if (hook.event !== 'wallet' || !(await this.budget.allows(hook.accountId))) continue;
          if (event.doubleSpend) {
            out.push(this.delivery(hook, doubleSpendKey({ txid: event.txid, ...event.doubleSpend }), EVENT_CATALOGUE.wallet_touched.webhookBody(event, hook, 0)));
            continue;
          }
          const confirmations = event.confirmed ? await txDepth(this.readers.get(event.network)!, event.txid) : 0;
          const delivery = this.delivery(hook, `${event.txid}:${confirmations}`, EVENT_CATALOGUE.wallet_touched.webhookBody(event, hook, confirmations));
          out.push(delivery);
          watches.push({ network: event.network, watch: { hookId: hook.id, txid: event.txid, target: hook.confirmations ?? 1, delivered: confirmations }, delivery: delivery.id });
        }
        return;
      case 'double_spend': {
        const hooks = new Set<Webhook>([...event.scripts.flatMap((s) => index.forScript(event.network, addressKey(s))), ...index.forTxid(event.network, event.txid)]);
        for (const hook of hooks) {
          if (hook.event !== 'double_spend') continue;
          out.push(this.delivery(hook, doubleSpendKey(event), EVENT_CATALOGUE.double_spend.webhookBody(event, hook)));
        }
        return;
      }
      default:
        return;
    }
  }

  /** Every watched tx of the network against the chain as it now is: deliveries for depths reached or lost. */
  private async judgeWatches(network: NetworkId, index: WebhookIndex, out: NewDelivery[], tipKey: string): Promise<void> {
    const reader = this.readers.get(network)!;
    for (const watch of await this.store.watches(network)) {
      const hook = index.get(watch.hookId);
      // Past the account's budget its watches wait (unread, unchanged) for the next day, when they are judged as they stand.
      if (!hook || !(await this.budget.allows(hook.accountId))) continue;
      const depth = await txDepth(reader, watch.txid);
      const decision = hook.event === 'wallet' ? walletWatchDecision(watch, depth) : watchDecision(watch, depth);
      const depthBody = isWebhookType(hook.event) ? webhookTypeOf(hook.event).depthBody : null;
      if (decision.deliver && depthBody) {
        const wallet = hook.descriptor ? walletIdOf(hook.descriptor) : null;
        const body = depthBody({ network, txid: watch.txid, address: hook.address, wallet, depth, target: watch.target, reorg: decision.reorg });
        out.push(this.delivery(hook, `${watch.txid}:${depth}:${tipKey}`, body));
      }
      if (decision.next !== watch.delivered || decision.drop) await this.store.updateWatch(watch.hookId, watch.txid, decision.drop ? null : decision.next);
    }
  }

  private delivery(hook: Webhook, what: string, body: Record<string, unknown>): NewDelivery {
    return { id: deliveryId(hook.id, what), hookId: hook.id, event: hook.event, body: JSON.stringify(body) };
  }

  /** The plan's deliveries per UTC day (webhook-budget.ts); past it the rest are dropped until midnight UTC. */
  private async withinBudget(deliveries: readonly NewDelivery[], index: WebhookIndex): Promise<NewDelivery[]> {
    const allowed: NewDelivery[] = [];
    for (const d of deliveries) if (await this.budget.take(index.get(d.hookId)!.accountId)) allowed.push(d);
    return allowed;
  }
}
