/**
 * The gap scan: each chain of a wallet is read from index 0 until `gap` consecutive addresses are unused (an address
 * is used when a confirmed or live mempool tx pays or spends from it). Every chain's next range goes into one store
 * call (getScriptTotals), and the first call already covers each chain up to its last used address at the previous
 * scan plus the gap, so a wallet that did not change since is read in one call. An index is used when any of its
 * scripts is (combo() has several per index); a descriptor without `*` has one index per chain.
 */
import type { AddressTotals } from '../../core/store/chain-reads.js';
import { InvalidArgumentError } from '../../core/domain/errors.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import type { ScriptSetTxCount } from '../../core/store/script-set-reads.js';
import type { WalletChains } from './wallet-keys.js';

/** Beyond this many scripts in one chain the wallet is not scanned (each costs a lookup and, but for combo's, a derivation). */
export const MAX_CHAIN_ADDRESSES = 100_000;
/** Nor beyond this many key derivations in one chain: a k-of-n address index derives n keys. */
export const MAX_CHAIN_DERIVATIONS = 100_000;

export interface UsedAddress {
  readonly chain: number;
  /** The position in the chain's scripts (WalletChains): the address index for every form but combo(). */
  readonly index: number;
  readonly script: Uint8Array;
  readonly totals: AddressTotals;
}

export interface ScanResult {
  /** Used addresses, chain by chain, each in index order. */
  readonly used: readonly UsedAddress[];
  /** Per chain: the index after its last used address (0 when none is used). */
  readonly next: readonly number[];
  /**
   * The used addresses' distinct tx count when the scan's one read already gave it (it read nothing used past the
   * gap); null: ask the store.
   */
  readonly txCount: ScriptSetTxCount | null;
}

export function isUsed(totals: AddressTotals): boolean {
  return totals.txCount + totals.unconfirmedTxCount > 0;
}

/**
 * Where a chain's scan stands on what was read (`width` scripts an index): its last used index, and whether it is
 * known (`gap` unused indexes in a row, or the chain's end).
 */
function walk(totals: readonly AddressTotals[], gap: number, width: number, size: number): { lastUsed: number; done: boolean } {
  let lastUsed = -1;
  let unused = 0;
  for (let i = 0; (i + 1) * width <= totals.length; i++) {
    if (totals.slice(i * width, (i + 1) * width).some(isUsed)) {
      lastUsed = i;
      unused = 0;
    } else if (++unused === gap) {
      return { lastUsed, done: true };
    }
  }
  return { lastUsed, done: totals.length >= size };
}

export async function scanWallet(reader: NetworkReader, keys: WalletChains, gap: number): Promise<ScanResult> {
  const chains = Array.from({ length: keys.chains }, (_, chain) => chain);
  const read: AddressTotals[][] = chains.map(() => []);
  const lastUsed = chains.map(() => -1);
  const done = chains.map(() => false);
  // First reach: the previous scan's last used address plus the gap (addresses only become used, barring reorgs);
  // what counts is still decided from index 0 by the gap rule (walk), so a hint from a scan with another gap or
  // before a reorg changes how much is read at once, never the answer.
  const { width, chainLength: size } = keys;
  const reach = (lastUsed: number): number => Math.min((lastUsed + 1 + gap) * width, size);
  const want = chains.map((chain) => reach(keys.lastUsed[chain]!));
  let reads = 0;
  let firstCount: ScriptSetTxCount | null = null;
  while (chains.some((chain) => !done[chain])) {
    const open = chains.filter((chain) => !done[chain]);
    for (const chain of open) {
      if (want[chain]! > MAX_CHAIN_ADDRESSES) {
        throw new InvalidArgumentError('xpub', `more than ${MAX_CHAIN_ADDRESSES} addresses of one chain would have to be scanned: not served`);
      }
      if (Math.ceil(want[chain]! / width) * keys.derivationsPerIndex > MAX_CHAIN_DERIVATIONS) {
        throw new InvalidArgumentError('xpub', `more than ${MAX_CHAIN_DERIVATIONS} key derivations on one chain (${keys.derivationsPerIndex} an address) would have to be made: not served`);
      }
    }
    const ranges = await Promise.all(open.map(async (chain) => ({ chain, scripts: await keys.range(chain, read[chain]!.length, want[chain]!) })));
    const scripts = ranges.flatMap((r) => r.scripts);
    // The first read also counts the txs: when it is the only one, the summary needs no other (the common, warm case).
    let totals: AddressTotals[];
    if (reads++ === 0) ({ totals, txCount: firstCount } = await reader.scriptSets.getScriptSetSummary(scripts));
    else totals = await reader.scriptSets.getScriptTotals(scripts);
    let at = 0;
    for (const { chain, scripts } of ranges) {
      read[chain]!.push(...totals.slice(at, at + scripts.length));
      at += scripts.length;
      const state = walk(read[chain]!, gap, width, size);
      lastUsed[chain] = state.lastUsed;
      done[chain] = state.done;
      want[chain] = reach(state.lastUsed);
    }
  }
  const used: UsedAddress[] = [];
  let usedPastGap = false;
  for (const chain of chains) {
    keys.lastUsed[chain] = lastUsed[chain]!;
    read[chain]!.forEach((totals, index) => {
      if (!isUsed(totals)) return;
      if (Math.floor(index / width) <= lastUsed[chain]!) used.push({ chain, index, script: keys.script(chain, index), totals });
      else usedPastGap = true;
    });
  }
  return { used, next: lastUsed.map((i) => i + 1), txCount: reads === 1 && !usedPastGap ? firstCount : null };
}
