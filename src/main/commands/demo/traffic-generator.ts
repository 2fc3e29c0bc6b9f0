import type { Logger } from '../../../core/index.js';
import type { DemoNode } from './demo-node.js';

const TYPES = ['legacy', 'p2sh-segwit', 'bech32'] as const;

/**
 * Demo traffic on a regtest node: payments among a fixed pool of addresses of every type (so
 * histories grow and balances move), a block every `blockEveryMs`, and so always a few
 * unconfirmed payments in the mempool between blocks.
 */
export class TrafficGenerator {
  readonly addresses: string[] = [];
  private timers: NodeJS.Timeout[] = [];
  private busy = false;
  private counter = 0;

  constructor(
    private readonly node: DemoNode,
    private readonly logger: Logger,
    private readonly blockEveryMs = 5000,
    private readonly payEveryMs = 700,
  ) {}

  /** Funds the wallet (101 blocks: one mature coinbase) and prepares the address pool. */
  async prepare(): Promise<void> {
    for (let i = 0; i < 12; i++) this.addresses.push(await this.node.wallet.call<string>('getnewaddress', ['', TYPES[i % TYPES.length]]));
    await this.node.rpc.call('generatetoaddress', [110, this.addresses[0]]);
    // The wallet learns of the blocks after generatetoaddress returns; spending before it has would fail.
    await this.node.rpc.call('syncwithvalidationinterfacequeue', []);
    for (const address of this.addresses) await this.node.wallet.call('sendtoaddress', [address, '5']);
    await this.node.rpc.call('generatetoaddress', [1, this.addresses[1]]);
  }

  start(): void {
    this.timers.push(setInterval(() => this.step(() => this.mine()), this.blockEveryMs));
    this.timers.push(setInterval(() => this.step(() => this.pay()), this.payEveryMs));
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  /** One RPC action at a time; a failed action is logged and the demo goes on. */
  private step(action: () => Promise<void>): void {
    if (this.busy) return;
    this.busy = true;
    action()
      .catch((err: unknown) => this.logger.warn('demo traffic step failed', { error: err instanceof Error ? err.message : String(err) }))
      .finally(() => {
        this.busy = false;
      });
  }

  private async mine(): Promise<void> {
    const to = this.addresses[this.counter++ % this.addresses.length]!;
    await this.node.rpc.call('generatetoaddress', [1, to]);
  }

  private async pay(): Promise<void> {
    const to = this.addresses[Math.floor(Math.random() * this.addresses.length)]!;
    const amount = (0.01 + Math.floor(Math.random() * 5000) / 10000).toFixed(8);
    await this.node.wallet.call('sendtoaddress', [to, amount]);
  }
}
