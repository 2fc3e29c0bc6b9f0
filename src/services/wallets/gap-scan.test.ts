/**
 * The gap scan over chains of positions (docs/wallets.md, "The gap scan"): an index is used when any of its scripts
 * is (combo's forms), a descriptor without `*` is one index per chain, and the scan refuses a chain that would need
 * more than MAX_CHAIN_DERIVATIONS key derivations (a k-of-n index derives n keys). A store stand-in answers which
 * scripts are used; the wallet's scripts encode their chain and position.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidArgumentError } from '../../core/domain/errors.js';
import type { AddressTotals } from '../../core/store/chain-reads.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import type { WalletChains } from './wallet-keys.js';
import { MAX_CHAIN_DERIVATIONS, scanWallet } from './gap-scan.js';

const UNUSED: AddressTotals = {
  confirmedReceived: 0n, confirmedSent: 0n, confirmedBalance: 0n, txCount: 0, receivedTxCount: 0, sentTxCount: 0,
  unconfirmedReceived: 0n, unconfirmedSent: 0n, unconfirmedBalance: 0n, unconfirmedTxCount: 0,
};
const USED: AddressTotals = { ...UNUSED, confirmedReceived: 5n, confirmedBalance: 5n, txCount: 1, receivedTxCount: 1 };

const scriptOf = (chain: number, position: number): Uint8Array => Uint8Array.of(chain, position >> 16, (position >> 8) & 0xff, position & 0xff);
const key = (s: Uint8Array): string => `${s[0]}:${(s[1]! << 16) | (s[2]! << 8) | s[3]!}`;

/** A store whose used scripts are `used` ("chain:position"), counting the scripts it was asked about. */
function reader(used: ReadonlySet<string>): { reader: NetworkReader; asked: () => number } {
  let asked = 0;
  const totals = (scripts: readonly Uint8Array[]): AddressTotals[] => {
    asked += scripts.length;
    return scripts.map((s) => (used.has(key(s)) ? USED : UNUSED));
  };
  const scriptSets = {
    getScriptTotals: async (scripts: readonly Uint8Array[]) => totals(scripts),
    getScriptSetSummary: async (scripts: readonly Uint8Array[]) => ({ totals: totals(scripts), txCount: { confirmed: 0, mempool: 0 } }),
  };
  return { reader: { scriptSets } as unknown as NetworkReader, asked: () => asked };
}

function chains(opts: { chains?: number; width?: number; chainLength?: number; derivationsPerIndex?: number }): WalletChains {
  const width = opts.width ?? 1;
  return {
    descriptor: 'test', chains: opts.chains ?? 2, width, chainLength: opts.chainLength ?? Number.MAX_SAFE_INTEGER, addressForm: 0,
    derivationsPerIndex: opts.derivationsPerIndex ?? 1, lastUsed: Array.from({ length: opts.chains ?? 2 }, () => -1),
    range: async (chain, from, to) => Array.from({ length: to - from }, (_, i) => scriptOf(chain, from + i)),
    script: (chain, position) => scriptOf(chain, position),
    path: (chain, position) => `${chain}/${Math.floor(position / width)}`,
  };
}

describe('the gap scan over positions', () => {
  it('one script an index: stops after gap unused indexes, per chain', async () => {
    const { reader: r } = reader(new Set(['0:0', '0:3', '1:1']));
    const scan = await scanWallet(r, chains({}), 3);
    assert.deepEqual(scan.used.map((u) => `${u.chain}:${u.index}`), ['0:0', '0:3', '1:1']);
    assert.deepEqual(scan.next, [4, 2]);
  });

  it('combo: any form of an index makes the index used, and the gap counts indexes, not scripts', async () => {
    // Width 4: index 2's fourth form (position 11) and index 5's second (position 21). Gap 3: 3, 4 unused, 5 used.
    const { reader: r, asked } = reader(new Set(['0:11', '0:21']));
    const scan = await scanWallet(r, chains({ chains: 1, width: 4 }), 3);
    assert.deepEqual(scan.used.map((u) => u.index), [11, 21]);
    assert.deepEqual(scan.next, [6], 'the index after the last used one');
    assert.equal(asked(), 4 * (6 + 3), 'every form of indexes 0 to 8');
  });

  it('a descriptor without * is one index per chain: read once, never past it', async () => {
    const { reader: r, asked } = reader(new Set(['0:0']));
    const scan = await scanWallet(r, chains({ chainLength: 1 }), 20);
    assert.deepEqual(scan.used.map((u) => `${u.chain}:${u.index}`), ['0:0']);
    assert.deepEqual(scan.next, [1, 0]);
    assert.equal(asked(), 2);
  });

  it('refuses a chain that needs more than MAX_CHAIN_DERIVATIONS key derivations (n per index of a k-of-n wallet)', async () => {
    const gap = 1000;
    // 20 keys an index: 5,000 indexes is the most; gap 1000 from nothing used is 1,000 indexes, 20,000 derivations.
    assert.equal((await scanWallet(reader(new Set()).reader, chains({ derivationsPerIndex: 20 }), gap)).used.length, 0);
    const used = new Set(Array.from({ length: 4_500 }, (_, i) => `0:${i}`));
    await assert.rejects(scanWallet(reader(used).reader, chains({ derivationsPerIndex: 20 }), gap), (error: unknown) => {
      assert.ok(error instanceof InvalidArgumentError);
      assert.match(error.message, new RegExp(`more than ${MAX_CHAIN_DERIVATIONS} key derivations on one chain \\(20 an address\\)`));
      return true;
    });
    assert.equal((await scanWallet(reader(used).reader, chains({ derivationsPerIndex: 1 }), gap)).used.length, 4_500, 'one key an index: within bounds');
  });
});
