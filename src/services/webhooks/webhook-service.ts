import { decodeAddress } from '../../chains/addressing.js';
import { BudgetSpentError, InvalidArgumentError, NotFoundError } from '../../core/domain/errors.js';
import type { WebhookSender } from '../../core/sources/webhook-sender.js';
import type { Delivery, Webhook, WebhookStore } from '../../core/store/webhook-store.js';
import { addressKey } from '../events/catalogue/event-channels.js';
import { isWebhookType, WEBHOOK_TYPES, webhookTypeOf } from '../events/catalogue/webhook-types.js';
import type { NetworkRegistry } from '../shared/network-registry.js';
import { secondsToUtcMidnight } from './webhook-budget.js';
import type { WebhookLimits } from './webhook-limits.js';
import { newSecret } from './webhook-signing.js';
import { walletOf } from './wallet-registration.js';

export interface NewWebhookRequest {
  readonly network: string;
  readonly event: string;
  readonly url: string;
  readonly address?: string;
  readonly txid?: string;
  readonly confirmations?: number;
  /** `wallet` hooks: the wallet as an output descriptor or an extended public key (either name), and its gap. */
  readonly descriptor?: string;
  readonly xpub?: string;
  readonly gap?: number;
}

const TXID = /^[0-9a-f]{64}$/;

function depthOf(depth: unknown): number {
  if (typeof depth !== 'number' || !Number.isInteger(depth) || depth < 1 || depth > 100) throw new InvalidArgumentError('confirmations', 'confirmations must be an integer from 1 to 100');
  return depth;
}

/** Registration, listing and removal of an account's hooks, and its deliveries (v3 routes, dashboard). */
export class WebhookService {
  constructor(
    private readonly store: WebhookStore,
    private readonly networks: NetworkRegistry,
    private readonly targets: Pick<WebhookSender, 'checkTarget'>,
    private readonly limits: WebhookLimits,
    private readonly nowS: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  /** The new hook and its secret (shown this once). */
  async create(accountId: number, plan: string, request: NewWebhookRequest): Promise<{ hook: Webhook; secret: string }> {
    const ctx = this.networks.resolve(request.network);
    const event = request.event;
    if (!isWebhookType(event)) throw new InvalidArgumentError('event', `event must be one of ${WEBHOOK_TYPES.join(', ')}`);
    // What the type watches (the event catalogue's webhook types): an address, a txid (and a depth), either, or the network.
    const { target, depth: needsDepth } = webhookTypeOf(event);
    if (typeof request.url !== 'string' || request.url.length > 2000) throw new InvalidArgumentError('url', 'url must be a string of at most 2000 characters');
    let address: string | null = null;
    let script: string | null = null;
    let txid: string | null = null;
    let confirmations: number | null = null;
    if (target === 'address' || (target === 'address-or-txid' && request.address !== undefined)) {
      if (typeof request.address !== 'string') throw new InvalidArgumentError('address', 'an address hook needs an address');
      const decoded = decodeAddress(ctx.params, request.address);
      if (decoded.script === null) throw new InvalidArgumentError('address', 'MWEB stealth addresses have no visible transactions');
      address = request.address;
      script = addressKey(decoded.script);
    }
    if (target === 'txid' || (target === 'address-or-txid' && request.address === undefined)) {
      const given = typeof request.txid === 'string' ? request.txid.toLowerCase() : '';
      if (!TXID.test(given)) throw new InvalidArgumentError('txid', 'txid must be 64 hex characters');
      txid = given;
    }
    let wallet: { descriptor: string; gap: number } | null = null;
    if (target === 'wallet') {
      wallet = walletOf(ctx.params, request, this.limits.maxWalletHooks);
      if (request.confirmations !== undefined) confirmations = depthOf(request.confirmations);
    }
    if (needsDepth) {
      confirmations = depthOf(request.confirmations);
    }
    const refused = await this.targets.checkTarget(request.url);
    if (refused) throw new InvalidArgumentError('url', `url refused: ${refused}`);
    const secret = newSecret();
    const { maxHooks } = this.limits.of(plan);
    const spec = { accountId, network: ctx.id, event, url: request.url, secret, address, script, txid, confirmations, descriptor: wallet?.descriptor ?? null, gap: wallet?.gap ?? null };
    const hook = await this.store.create(spec, this.nowS(), maxHooks, wallet ? this.limits.maxWalletHooks : 0);
    if (!hook && wallet && (await this.store.list(accountId)).length < maxHooks) {
      throw new InvalidArgumentError('limit', `this service watches its ${this.limits.maxWalletHooks} wallet webhooks already; try again later`);
    }
    if (!hook) throw new InvalidArgumentError('limit', `the plan allows ${maxHooks} webhooks; delete one first`);
    if (txid !== null && needsDepth) await this.store.watch({ hookId: hook.id, txid, target: confirmations!, delivered: -1 }, ctx.id);
    return { hook, secret };
  }

  list(accountId: number): Promise<Webhook[]> {
    return this.store.list(accountId);
  }

  async remove(accountId: number, id: number): Promise<void> {
    if (!(await this.store.remove(accountId, id))) throw new NotFoundError('id', `no webhook ${id} on this account`);
  }

  recent(accountId: number, limit = 50): Promise<Delivery[]> {
    return this.store.recent(accountId, limit);
  }

  /**
   * Sends a finished delivery again. Refused once the plan's deliveries of the day are spent (the budget stops resends
   * as it stops new deliveries), and for a delivery of a deleted hook (it went with its hook).
   */
  async resend(accountId: number, plan: string, id: string): Promise<void> {
    const nowMs = this.nowS() * 1000;
    const { deliveriesPerDay } = this.limits.of(plan);
    if ((await this.store.countSince(accountId, nowMs - (nowMs % 86_400_000))) >= deliveriesPerDay) {
      const wait = secondsToUtcMidnight(nowMs);
      throw new BudgetSpentError(`the plan's ${deliveriesPerDay} webhook deliveries of today are spent: deliveries can be re-sent after 00:00 UTC (in ${wait} s)`, wait);
    }
    if (!(await this.store.resend(accountId, id, nowMs))) throw new NotFoundError('id', `no finished delivery ${id.slice(0, 64)} on this account`);
  }
}
