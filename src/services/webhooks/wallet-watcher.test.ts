/**
 * The wallet watcher (issue 50): a wallet hook's window is its gap scan's (last used + gap per chain) and moves as
 * its addresses get used; a tx touching it makes one wallet_touched whatever number of its addresses it touches, with
 * the wallet's net; a double spend involving it one more; the global bound stops windows from moving; a deleted
 * hook's window is forgotten. A store stand-in answers which scripts are used; derivation is real (a 2-of-3 wallet).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { getNetworkParams } from '../../chains/addressing.js';
import { descriptorChecksum } from '../../chains/wallet/descriptor-checksum.js';
import { ChainDerivation } from '../../chains/wallet/wallet-derivation.js';
import { parseWalletDescriptor } from '../../chains/wallet/wallet-descriptor.js';
import type { Transaction } from '../../core/domain/chain-types.js';
import type { DomainEvent, WalletTouchedEvent } from '../../core/domain/events.js';
import { silentLogger } from '../../core/index.js';
import type { AddressTotals } from '../../core/store/chain-reads.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import type { Webhook } from '../../core/store/webhook-store.js';
import { waitFor } from '../../../test/helpers/wait-for.js';
import { DerivationPool } from '../wallets/derivation-pool.js';
import { WalletWatcher } from './wallet-watcher.js';
import type { WebhookIndex } from './webhook-index.js';

const NET = 'BTCTEST' as const;
const params = getNetworkParams(NET, 'regtest');
const KEYS = [
  '[4ba43603/48h/1h/0h/2h]tpubDDwf2gdFxFahr9RUtDQCuZmsx34CfdZ7RALAirwC2FGeLBzW1TDiEpqFeRdxLdZD7rfsbZHYwSaT6CLM3TAcYRw6xfRv4U6KCQt4Zuhvjkz',
  '[8dfc9b34/48h/1h/0h/2h]tpubDEXiq2SVhhqALktxfVFgj3C9M3T2G7xL11iezYg2LJAf245YkNyqp2K9TrvHABDCp2232k34UegU4aKEtUZNigit8EEqoLNe2JKMzMiLwYq',
  '[56c4fac3/48h/1h/0h/2h]tpubDEg3kqr2jo5ergkJbFqRHvCpiob7wR7Hi44J7y987G1JZfbzBND77XKTyPZzGvh3uyDf8kexMJnFD9W8FuraJ4wLMsx6YuZVXRSRRcx6QdD',
];
const body = `wsh(sortedmulti(2,${KEYS.map((k) => `${k}/<0;1>/*`).join(',')}))`;
const DESCRIPTOR = `${body}#${descriptorChecksum(body)}`;
const wallet = parseWalletDescriptor(params, DESCRIPTOR);
const receive = new ChainDerivation(wallet, 0);
const change = new ChainDerivation(wallet, 1);
const GAP = 3;
const pool = new DerivationPool({ threads: 1, queue: 1 });
after(() => pool.close());

const UNUSED: AddressTotals = {
  confirmedReceived: 0n, confirmedSent: 0n, confirmedBalance: 0n, txCount: 0, receivedTxCount: 0, sentTxCount: 0,
  unconfirmedReceived: 0n, unconfirmedSent: 0n, unconfirmedBalance: 0n, unconfirmedTxCount: 0,
};
const hex = (s: Uint8Array): string => Buffer.from(s).toString('hex');

/** A store that says the scripts in `used` are used. */
function storeWith(used: readonly Uint8Array[]): NetworkReader {
  const set = new Set(used.map(hex));
  const totals = (scripts: readonly Uint8Array[]): AddressTotals[] => scripts.map((s) => (set.has(hex(s)) ? { ...UNUSED, txCount: 1 } : UNUSED));
  return { scriptSets: { getScriptTotals: async (s: Uint8Array[]) => totals(s), getScriptSetSummary: async (s: Uint8Array[]) => ({ totals: totals(s), txCount: null }) } } as unknown as NetworkReader;
}

const OTHER = Uint8Array.of(0x00, 0x14, ...new Uint8Array(20).fill(7));
let n = 0;
function tx(outputs: { script: Uint8Array; value: bigint }[]): Transaction {
  return { txid: (++n).toString(16).padStart(64, '0'), outputs, inputs: [] } as unknown as Transaction;
}

function touched(t: Transaction, script: Uint8Array): DomainEvent {
  return { kind: 'address_touched', network: NET, txid: t.txid, tx: t, delta: { script, txid: t.txid, received: 1n, sent: 0n }, confirmed: false, prevouts: [] };
}

function watcher(hooks: Partial<Webhook>[], used: Uint8Array[] = [], maxScripts = 1_000_000): { watcher: WalletWatcher; out: WalletTouchedEvent[]; hooks: Partial<Webhook>[] } {
  const out: WalletTouchedEvent[] = [];
  const list = hooks;
  const index = { fresh: async () => index, walletHooks: () => list } as unknown as WebhookIndex;
  const w = new WalletWatcher(index, new Map([[NET, storeWith(used)]]), new Map([[NET, params]]), pool, maxScripts, silentLogger, () => 1);
  w.publishTo({ publish: (e) => void (e.kind === 'wallet_touched' && out.push(e)), subscribe: () => () => undefined });
  return { watcher: w, out, hooks: list };
}

const HOOK = { id: 1, accountId: 7, network: NET, event: 'wallet', descriptor: DESCRIPTOR, gap: GAP };

describe('wallet watcher', () => {
  it('watches last used + gap on each chain, and the window moves as addresses get used', async () => {
    // Receive 0 and 2 used already: the window reaches 2 + 3 = 5 on receive, 2 on change.
    const { watcher: w, out } = watcher([HOOK], [receive.script(0), receive.script(2)]);
    await w.sync();
    assert.equal(w.scripts, 6 + 3);
    const pay = async (script: Uint8Array, value = 10n): Promise<Transaction> => {
      const t = tx([{ script, value }, { script: OTHER, value: 5n }]);
      w.onEvent(touched(t, script));
      await w.drain();
      return t;
    };
    await pay(receive.script(6));
    assert.equal(out.length, 0, 'past the window: not reported');
    const at5 = await pay(receive.script(5));
    assert.deepEqual(out.map((e) => [e.txid, e.received, e.sent, e.wallet, e.addresses.map((a) => a.path)]), [[at5.txid, 10n, 0n, DESCRIPTOR.slice(-8), ['0/5']]]);
    assert.equal(w.scripts, 9 + 3, 'now up to 5 + 3');
    await pay(receive.script(8));
    assert.equal(out.length, 2, 'last_used + gap is reported');
    // One tx paying two of its addresses: one event, the net of both.
    const both = tx([{ script: receive.script(9), value: 3n }, { script: change.script(0), value: 4n }]);
    w.onEvent(touched(both, receive.script(9)));
    w.onEvent(touched(both, change.script(0)));
    await w.drain();
    assert.equal(out.length, 3);
    assert.deepEqual([out[2]!.received, out[2]!.addresses.map((a) => a.path)], [7n, ['0/9', '1/0']]);
    w.onEvent({ kind: 'double_spend', network: NET, txid: both.txid, conflictingTxids: ['ab'.repeat(32)], reason: 'replaced', seenIn: 'mempool', outpoints: [], scripts: [OTHER, change.script(0)], time: 1 });
    await w.drain();
    assert.deepEqual([out[3]!.doubleSpend?.reason, out[3]!.addresses.map((a) => a.path)], ['replaced', ['1/0']]);
    await w.close();
  });

  it('the global bound stops windows from moving; a deleted hook leaves nothing', async () => {
    const { watcher: w, out, hooks } = watcher([HOOK], [], 4);
    await w.sync();
    assert.equal(w.scripts, 3, 'receive 0-2 (change would pass the bound)');
    const t = tx([{ script: receive.script(2), value: 1n }]);
    w.onEvent(touched(t, receive.script(2)));
    await w.drain();
    assert.equal(out.length, 1, 'reported');
    assert.equal(w.scripts, 3, 'but the window stays within the bound');
    hooks.length = 0;
    await w.sync();
    assert.equal(w.scripts, 0, 'forgotten with its hook');
    await w.close();
  });

  it('follows the hooks between events: a deleted hook\'s window goes on a quiet network', async () => {
    const { watcher: w, hooks } = watcher([HOOK]);
    w.start(20);
    await waitFor(() => w.scripts === 6, 10_000, 'the window opened without any event');
    hooks.length = 0;
    await waitFor(() => w.scripts === 0, 10_000, 'the window forgotten without any event');
    await w.close();
  });

  it("past the accounts' delivery budget a wallet costs nothing: no window, no derivation, no events", async () => {
    const { watcher: w, out } = watcher([HOOK, { ...HOOK, id: 2, accountId: 8 }]);
    const open = new Set([7, 8]);
    w.budgetedBy(async (account) => open.has(account));
    open.delete(7);
    await w.sync();
    assert.equal(w.scripts, 6, 'one account still open: watched');
    open.delete(8);
    const t = tx([{ script: receive.script(0), value: 1n }]);
    w.onEvent(touched(t, receive.script(0)));
    await w.drain();
    assert.equal(out.length, 0, 'both spent: no event');
    const fresh = watcher([{ ...HOOK, accountId: 9 }]);
    fresh.watcher.budgetedBy(async () => false);
    await fresh.watcher.sync();
    assert.equal(fresh.watcher.scripts, 0, 'a spent account\'s wallet is not even opened');
    await Promise.all([w.close(), fresh.watcher.close()]);
  });
});
