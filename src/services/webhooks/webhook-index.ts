import type { NetworkId } from '../../core/domain/network.js';
import type { Webhook, WebhookStore } from '../../core/store/webhook-store.js';

/** A wallet's id: its normalised descriptor's checksum (the part after `#`). */
export function walletIdOf(descriptor: string): string {
  return descriptor.slice(descriptor.lastIndexOf('#') + 1);
}

/**
 * The hooks of the networks this writer publishes, indexed for matching: by output script (address and double-spend
 * hooks), by txid, and the block hooks. Reloaded from the store every `refreshMs` (hooks are registered by any API
 * process): a new hook matches from its next reload, at most that long after registration (docs/webhooks.md).
 */
export class WebhookIndex {
  private byScript = new Map<string, Webhook[]>();
  private byTxid = new Map<string, Webhook[]>();
  private blocks = new Map<NetworkId, Webhook[]>();
  /** Wallet hooks by `network:walletId` (the descriptor's checksum). */
  private byWallet = new Map<string, Webhook[]>();
  private wallets: Webhook[] = [];
  private hooks = new Map<number, Webhook>();
  private loadedAt = -Infinity;

  constructor(
    private readonly store: WebhookStore,
    private readonly networks: readonly NetworkId[],
    private readonly refreshMs: number,
    private readonly nowMs: () => number = Date.now,
  ) {}

  async fresh(): Promise<this> {
    if (this.nowMs() - this.loadedAt >= this.refreshMs) await this.reload();
    return this;
  }

  async reload(): Promise<void> {
    const all = (await Promise.all(this.networks.map((n) => this.store.byNetwork(n)))).flat();
    const byScript = new Map<string, Webhook[]>();
    const byTxid = new Map<string, Webhook[]>();
    const blocks = new Map<NetworkId, Webhook[]>();
    const byWallet = new Map<string, Webhook[]>();
    const add = <K>(map: Map<K, Webhook[]>, key: K, hook: Webhook): void => {
      const list = map.get(key);
      if (list) list.push(hook);
      else map.set(key, [hook]);
    };
    for (const hook of all) {
      if (hook.script !== null) add(byScript, `${hook.network}:${hook.script}`, hook);
      if (hook.txid !== null) add(byTxid, `${hook.network}:${hook.txid}`, hook);
      if (hook.event === 'block') add(blocks, hook.network, hook);
      if (hook.event === 'wallet' && hook.descriptor) add(byWallet, `${hook.network}:${walletIdOf(hook.descriptor)}`, hook);
    }
    this.byWallet = byWallet;
    this.wallets = all.filter((h) => h.event === 'wallet' && h.descriptor);
    this.byScript = byScript;
    this.byTxid = byTxid;
    this.blocks = blocks;
    this.hooks = new Map(all.map((h) => [h.id, h]));
    this.loadedAt = this.nowMs();
  }

  forScript(network: NetworkId, scriptHex: string): readonly Webhook[] {
    return this.byScript.get(`${network}:${scriptHex}`) ?? [];
  }

  forTxid(network: NetworkId, txid: string): readonly Webhook[] {
    return this.byTxid.get(`${network}:${txid}`) ?? [];
  }

  forBlocks(network: NetworkId): readonly Webhook[] {
    return this.blocks.get(network) ?? [];
  }

  /** The hooks of a watched wallet, by its id (its descriptor's checksum). */
  forWallet(network: NetworkId, wallet: string): readonly Webhook[] {
    return this.byWallet.get(`${network}:${wallet}`) ?? [];
  }

  /** Every wallet hook of the networks (the wallet watcher's wallets). */
  walletHooks(): readonly Webhook[] {
    return this.wallets;
  }

  get(id: number): Webhook | undefined {
    return this.hooks.get(id);
  }
}
