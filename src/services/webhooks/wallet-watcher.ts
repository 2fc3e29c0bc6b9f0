/**
 * The writer's watched wallets (issue 50): the wallets of `wallet` webhooks, each as a window of addresses
 * (wallet-window.ts). It listens to what this process publishes (a tap, like the webhook matcher) and turns a tx's
 * address_touched events into one `wallet_touched` per wallet it touches, published on the same bus: the event log
 * numbers it, realtime sends it on `wallet_{network}_{checksum}` and the matcher makes the wallet hooks' deliveries.
 *
 * Bounds (docs/webhooks.md, Limits): the hooks themselves (the plan's hook count per account, `[webhooks]
 * max_wallet_hooks` in all), and `[webhooks] wallet_window_addresses`, the scripts all windows hold together: past it a
 * window stops moving (logged once an hour) until hooks are deleted. Derivation runs on this watcher's own worker
 * thread (derivation-pool.ts), one wallet at a time.
 */
import { parseWalletDescriptor } from '../../chains/wallet/wallet-descriptor.js';
import type { NetworkParams } from '../../chains/addressing.js';
import type { DomainEvent, EventBus, WalletTouchedEvent } from '../../core/domain/events.js';
import type { NetworkId } from '../../core/domain/network.js';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import { addressKey } from '../events/catalogue/event-channels.js';
import { QueueBound } from '../events/queue-bound.js';
import type { DerivationPool } from '../wallets/derivation-pool.js';
import { WalletKeys } from '../wallets/wallet-keys.js';
import { walletIdOf, type WebhookIndex } from './webhook-index.js';
import { WalletWindow } from './wallet-window.js';

/** How many (wallet, tx, state) already published are remembered, so a tx's several address events make one. */
const RECENT = 10_000;
const BOUND_LOG_MS = 3_600_000;

interface Watched {
  readonly network: NetworkId;
  /** The accounts of its hooks. */
  accounts: readonly number[];
  readonly id: string;
  readonly descriptor: string;
  readonly gap: number;
  window: WalletWindow | null;
}

export class WalletWatcher {
  private queue: DomainEvent[] = [];
  private running: Promise<void> | null = null;
  private readonly bound = new QueueBound();
  private readonly wallets = new Map<string, Watched>();
  /**
   * Which watched wallets' windows hold a script (`network:hex`): an address event costs one lookup, not one per
   * watched wallet (a block's thousands of address events against a thousand wallets).
   */
  private readonly byScript = new Map<string, Watched[]>();
  private readonly recent = new Set<string>();
  private held = 0;
  private boundLoggedAt = -Infinity;
  private bus: EventBus | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  /** Whether an account's webhook deliveries of today are not spent (the matcher's budget); unset: always. */
  private accountOpen: (accountId: number) => Promise<boolean> = async () => true;

  constructor(
    private readonly index: WebhookIndex,
    private readonly readers: ReadonlyMap<NetworkId, NetworkReader>,
    private readonly params: ReadonlyMap<NetworkId, NetworkParams>,
    private readonly pool: DerivationPool,
    private readonly maxScripts: number,
    private readonly logger: Logger,
    private readonly nowS: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  /** Where wallet_touched events are published: the process's publishing bus (which this watcher taps). */
  publishTo(bus: EventBus): void {
    this.bus = bus;
  }

  /**
   * The daily delivery budget (webhook-budget.ts): a wallet whose hooks' accounts have all spent theirs costs nothing
   * more until midnight UTC (no window moves, no derivation, no wallet events).
   */
  budgetedBy(accountOpen: (accountId: number) => Promise<boolean>): void {
    this.accountOpen = accountOpen;
  }

  readonly onEvent = (event: DomainEvent): void => {
    if ((event.kind !== 'address_touched' && event.kind !== 'double_spend') || !this.readers.has(event.network)) return;
    this.queue.push(event);
    this.running ??= this.process();
  };

  absorbed(maxQueued?: number): Promise<void> {
    return this.bound.within(this.queue.length, maxQueued);
  }

  async drain(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * Follows the hooks between events too, every `everyMs`: a deleted hook's window goes (and a new hook's opens) on a
   * quiet network as well, not only with its next events.
   */
  start(everyMs = 5_000): void {
    this.timer ??= setInterval(() => {
      this.running ??= this.sync()
        .catch((error: unknown) => this.logger.warn('wallet watcher: reloading the hooks failed; retried', { error: error instanceof Error ? error.message : String(error) }))
        .finally(() => {
          this.running = null;
          // Events that came meanwhile wait for no other turn.
          if (this.queue.length > 0) this.running ??= this.process();
        });
    }, everyMs);
    this.timer.unref();
  }

  /** Stops following, drains, then stops the derivation thread. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.drain();
    await this.pool.close();
  }

  /** Scripts all windows hold (the global bound's measure). */
  get scripts(): number {
    return this.held;
  }

  private async process(): Promise<void> {
    while (this.queue.length > 0) {
      const events = this.queue;
      this.queue = [];
      try {
        await this.sync();
        for (const event of events) {
          // Most of a block's address events pay no watched wallet: told apart with one lookup, without a turn of await.
          if (event.kind === 'address_touched') {
            if (this.byScript.has(`${event.network}:${addressKey(event.delta.script)}`)) await this.touch(event);
          } else if (event.kind === 'double_spend') await this.doubleSpent(event);
        }
      } catch (error) {
        this.logger.error('wallet watcher: these events make no wallet events', { events: events.length, error: error instanceof Error ? error.message : String(error) });
      }
      this.bound.shrunkTo(this.queue.length);
    }
    this.running = null;
  }

  /** Watches the wallets of the hooks now registered (the largest gap of a wallet's hooks), forgets the others. */
  async sync(): Promise<void> {
    const index = await this.index.fresh();
    const wanted = new Map<string, { network: NetworkId; descriptor: string; gap: number; accounts: number[] }>();
    for (const hook of index.walletHooks()) {
      const key = `${hook.network}:${hook.descriptor}`;
      const had = wanted.get(key);
      const gap = Math.max(hook.gap ?? 1, had?.gap ?? 0);
      wanted.set(key, { network: hook.network, descriptor: hook.descriptor!, gap, accounts: [...(had?.accounts ?? []), hook.accountId] });
    }
    for (const [key, watched] of this.wallets) {
      const want = wanted.get(key);
      if (want?.gap === watched.gap) {
        watched.accounts = want.accounts;
        continue;
      }
      this.forget(watched);
      this.wallets.delete(key);
    }
    for (const [key, w] of wanted) {
      if (!this.wallets.has(key)) this.wallets.set(key, { ...w, id: walletIdOf(w.descriptor), window: null });
    }
    for (const watched of this.wallets.values()) if (!watched.window && (await this.budgeted(watched))) await this.open(watched);
  }

  private forget(watched: Watched): void {
    if (!watched.window) return;
    this.held -= watched.window.size;
    for (const hex of watched.window.scriptKeys()) {
      const key = `${watched.network}:${hex}`;
      const rest = (this.byScript.get(key) ?? []).filter((w) => w !== watched);
      if (rest.length > 0) this.byScript.set(key, rest);
      else this.byScript.delete(key);
    }
    watched.window = null;
  }

  private indexScript(watched: Watched, hex: string): void {
    const key = `${watched.network}:${hex}`;
    const list = this.byScript.get(key);
    if (list) list.push(watched);
    else this.byScript.set(key, [watched]);
  }

  private async budgeted(watched: Watched): Promise<boolean> {
    for (const account of watched.accounts) if (await this.accountOpen(account)) return true;
    return false;
  }

  private async open(watched: Watched): Promise<void> {
    const params = this.params.get(watched.network)!;
    let taken = 0;
    try {
      const keys = new WalletKeys(parseWalletDescriptor(params, watched.descriptor), this.pool, () => undefined).forRequest(async () => undefined);
      watched.window = await WalletWindow.open(this.readers.get(watched.network)!, keys, watched.gap, params, (n) => this.reserve(n), (hex) => {
        this.indexScript(watched, hex);
        taken++;
      });
    } catch (error) {
      // What a window that failed half way took is given back (it is opened again with the next events).
      this.held -= taken;
      for (const [key, list] of this.byScript) {
        const rest = list.filter((w) => w !== watched);
        if (rest.length === 0) this.byScript.delete(key);
        else if (rest.length !== list.length) this.byScript.set(key, rest);
      }
      this.logger.warn('wallet watcher: a watched wallet could not be opened; retried with the next events', { wallet: watched.id, error: error instanceof Error ? error.message : String(error) });
    }
  }

  private reserve(scripts: number): boolean {
    if (this.held + scripts <= this.maxScripts) {
      this.held += scripts;
      return true;
    }
    const now = Date.now();
    if (now - this.boundLoggedAt >= BOUND_LOG_MS) {
      this.boundLoggedAt = now;
      this.logger.warn('wallet watcher: [webhooks] wallet_window_addresses reached; wallet windows stop moving until hooks are deleted (logged once an hour)', { held: this.held, max: this.maxScripts });
    }
    return false;
  }

  private async touch(event: Extract<DomainEvent, { kind: 'address_touched' }>): Promise<void> {
    const hex = addressKey(event.delta.script);
    for (const watched of [...(this.byScript.get(`${event.network}:${hex}`) ?? [])]) {
      if (!watched.window?.has(hex)) continue;
      const key = `${watched.id}:${event.txid}:${event.confirmed}`;
      if (this.recent.has(key) || !(await this.budgeted(watched))) continue;
      const touch = await watched.window.touch(event.tx, event.prevouts);
      if (!touch) continue;
      this.remember(key);
      const out: WalletTouchedEvent = {
        kind: 'wallet_touched', network: event.network, wallet: watched.id, txid: event.txid, confirmed: event.confirmed,
        received: touch.received, sent: touch.sent, addresses: touch.addresses, time: this.nowS(),
      };
      this.bus?.publish(out);
    }
  }

  /** A double spend involving a watched wallet's addresses: one wallet_touched saying so per wallet. */
  private async doubleSpent(event: Extract<DomainEvent, { kind: 'double_spend' }>): Promise<void> {
    const holding = new Set(event.scripts.flatMap((script) => this.byScript.get(`${event.network}:${addressKey(script)}`) ?? []));
    for (const watched of holding) {
      if (!watched.window) continue;
      const addresses = watched.window.involved(event.scripts);
      const key = `${watched.id}:ds:${event.txid}:${event.reason}:${[...event.conflictingTxids].sort().join(',')}`;
      if (addresses.length === 0 || this.recent.has(key) || !(await this.budgeted(watched))) continue;
      this.remember(key);
      this.bus?.publish({
        kind: 'wallet_touched', network: event.network, wallet: watched.id, txid: event.txid, confirmed: false, received: 0n, sent: 0n, addresses,
        time: this.nowS(), doubleSpend: { conflictingTxids: event.conflictingTxids, reason: event.reason, seenIn: event.seenIn },
      });
    }
  }

  private remember(key: string): void {
    this.recent.add(key);
    if (this.recent.size > RECENT) this.recent.delete(this.recent.values().next().value!);
  }
}
