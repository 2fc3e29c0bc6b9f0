/**
 * The addresses a watched wallet's txs are looked for at (issue 50, docs/webhooks.md, wallet): per chain, every index
 * from 0 to the last used one plus the gap, so the address handed out as `next_receive_address` and the `gap - 1`
 * after it are always watched. The window moves as addresses get used: a payment to index `last_used + gap` is
 * reported and the gap beyond it is then watched. It starts from a gap scan of the store (what the chain says is
 * used, so a restart or a `kill -9` rebuilds it exactly) and grows from the txs seen since.
 */
import { scriptToAddress, type NetworkParams } from '../../chains/addressing.js';
import type { Transaction, PrevoutInfo } from '../../core/domain/chain-types.js';
import type { WalletAddressTouch } from '../../core/domain/events.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import { addressKey } from '../events/catalogue/event-channels.js';
import { MAX_CHAIN_ADDRESSES, scanWallet } from '../wallets/gap-scan.js';
import type { WalletChains } from '../wallets/wallet-keys.js';

interface Position {
  readonly chain: number;
  readonly position: number;
}

/** What a tx was to the wallet: its two sides and each address touched. */
export interface WalletTouch {
  readonly received: bigint;
  readonly sent: bigint;
  readonly addresses: readonly WalletAddressTouch[];
}

export class WalletWindow {
  private readonly byScript = new Map<string, Position>();
  /** Per chain, address indexes in the window. */
  private readonly extent: number[];

  private constructor(
    readonly keys: WalletChains,
    readonly gap: number,
    private readonly params: NetworkParams,
    /** Asks the watcher's global bound for `scripts` more; false: the window stays as it is. */
    private readonly reserve: (scripts: number) => boolean,
    /** Told of each script the window takes in (the watcher's index of scripts to wallets). */
    private readonly added: (scriptHex: string) => void,
  ) {
    this.extent = Array.from({ length: keys.chains }, () => 0);
  }

  /** A window from the store's gap scan: each chain to its last used index plus the gap. */
  static async open(
    reader: NetworkReader, keys: WalletChains, gap: number, params: NetworkParams, reserve: (scripts: number) => boolean, added: (scriptHex: string) => void,
  ): Promise<WalletWindow> {
    const scan = await scanWallet(reader, keys, gap);
    const window = new WalletWindow(keys, gap, params, reserve, added);
    for (let chain = 0; chain < keys.chains; chain++) await window.reach(chain, scan.next[chain]! - 1);
    return window;
  }

  /** Scripts held (the watcher's bound counts them). */
  get size(): number {
    return this.byScript.size;
  }

  has(scriptHex: string): boolean {
    return this.byScript.has(scriptHex);
  }

  /** Every script held, in hex (the watcher forgets them with the window). */
  scriptKeys(): IterableIterator<string> {
    return this.byScript.keys();
  }

  /**
   * The tx's net over the wallet and the addresses it touched (null: none of the window's); the window then moves past
   * the highest index touched on each chain.
   */
  async touch(tx: Transaction, prevouts: readonly (PrevoutInfo | null)[] | null): Promise<WalletTouch | null> {
    const touched = new Map<string, { position: Position; script: Uint8Array; received: bigint; sent: bigint }>();
    const note = (script: Uint8Array, received: bigint, sent: bigint): void => {
      const hex = addressKey(script);
      const position = this.byScript.get(hex);
      if (!position) return;
      const entry = touched.get(hex) ?? { position, script, received: 0n, sent: 0n };
      entry.received += received;
      entry.sent += sent;
      touched.set(hex, entry);
    };
    for (const output of tx.outputs) note(output.script, output.value, 0n);
    for (const prevout of prevouts ?? []) if (prevout) note(prevout.script, 0n, prevout.value);
    if (touched.size === 0) return null;
    const highest = new Map<number, number>();
    for (const { position } of touched.values()) {
      const index = Math.floor(position.position / this.keys.width);
      highest.set(position.chain, Math.max(highest.get(position.chain) ?? -1, index));
    }
    for (const [chain, index] of highest) await this.reach(chain, index);
    let received = 0n;
    let sent = 0n;
    const addresses = [...touched.values()].map((t) => {
      received += t.received;
      sent += t.sent;
      return { script: t.script, address: scriptToAddress(this.params, t.script), path: this.keys.path(t.position.chain, t.position.position), received: t.received, sent: t.sent };
    });
    return { received, sent, addresses };
  }

  /** The window's addresses among `scripts` (a double spend's), each once, with no amounts. */
  involved(scripts: readonly Uint8Array[]): WalletAddressTouch[] {
    const seen = new Set<string>();
    const out: WalletAddressTouch[] = [];
    for (const script of scripts) {
      const hex = addressKey(script);
      const position = this.byScript.get(hex);
      if (!position || seen.has(hex)) continue;
      seen.add(hex);
      out.push({ script, address: scriptToAddress(this.params, script), path: this.keys.path(position.chain, position.position), received: 0n, sent: 0n });
    }
    return out;
  }

  /** Extends `chain` to `lastUsed + gap` (indexes), within the chain's length, the scan's limit and the watcher's bound. */
  private async reach(chain: number, lastUsed: number): Promise<void> {
    const { width } = this.keys;
    const want = Math.min(lastUsed + 1 + this.gap, this.keys.chainLength / width, Math.floor(MAX_CHAIN_ADDRESSES / width));
    const have = this.extent[chain]!;
    if (want <= have || !this.reserve((want - have) * width)) return;
    const scripts = await this.keys.range(chain, have * width, want * width);
    scripts.forEach((script, i) => {
      const hex = addressKey(script);
      this.byScript.set(hex, { chain, position: have * width + i });
      this.added(hex);
    });
    this.extent[chain] = want;
  }
}
