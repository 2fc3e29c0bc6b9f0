/**
 * The writer's wallet watcher on the event path (issue 50, docs/benchmarks.md "Wallet hooks"): what a block's address
 * events cost with many watched wallets. 1,000 watched wallets (`addr()`: one script each, nothing to derive, so the
 * figure is the matching alone) and 20 single-key wallets at gap 20; a block of 10,000 address events of which 1 % pay
 * a watched wallet. The watcher finds a script's wallets with one lookup (its index); the reference in the same run is
 * what it did first, one lookup per watched wallet per event. Prints ms per block and µs per event.
 *
 *   flock /tmp/outpoint-bench.lock npm run bench:wallet-watcher
 */
import { getNetworkParams, scriptToAddress } from '../src/chains/addressing.js';
import { descriptorChecksum } from '../src/chains/wallet/descriptor-checksum.js';
import type { Transaction } from '../src/core/domain/chain-types.js';
import type { DomainEvent } from '../src/core/domain/events.js';
import { silentLogger } from '../src/core/index.js';
import type { NetworkReader } from '../src/core/store/network-store.js';
import type { Webhook } from '../src/core/store/webhook-store.js';
import { addressKey } from '../src/services/events/catalogue/event-channels.js';
import { DerivationPool } from '../src/services/wallets/derivation-pool.js';
import { WalletWatcher } from '../src/services/webhooks/wallet-watcher.js';
import type { WebhookIndex } from '../src/services/webhooks/webhook-index.js';

const NET = 'BTCTEST' as const;
const params = getNetworkParams(NET, 'regtest');
const WALLETS = 1_000;
const EVENTS = 10_000;
const ROUNDS = 5;
const TPUB = 'tpubDDwf2gdFxFahr9RUtDQCuZmsx34CfdZ7RALAirwC2FGeLBzW1TDiEpqFeRdxLdZD7rfsbZHYwSaT6CLM3TAcYRw6xfRv4U6KCQt4Zuhvjkz';

const p2wpkh = (n: number): Uint8Array => {
  const script = new Uint8Array(22);
  script[1] = 0x14;
  new DataView(script.buffer).setUint32(2, n);
  return script;
};
const withChecksum = (d: string): string => `${d}#${descriptorChecksum(d)}`;
const hooks: Partial<Webhook>[] = [];
for (let i = 0; i < WALLETS; i++) hooks.push({ id: i + 1, accountId: 1, network: NET, event: 'wallet', descriptor: withChecksum(`addr(${scriptToAddress(params, p2wpkh(i))})`), gap: 20 });
for (let i = 0; i < 20; i++) hooks.push({ id: WALLETS + i + 1, accountId: 1, network: NET, event: 'wallet', descriptor: withChecksum(`wpkh([4ba43603/84h/1h/${i}h]${TPUB}/<0;1>/*)`), gap: 20 });

const unused = { confirmedReceived: 0n, confirmedSent: 0n, confirmedBalance: 0n, txCount: 0, receivedTxCount: 0, sentTxCount: 0, unconfirmedReceived: 0n, unconfirmedSent: 0n, unconfirmedBalance: 0n, unconfirmedTxCount: 0 };
const reader = { scriptSets: { getScriptTotals: async (s: Uint8Array[]) => s.map(() => unused), getScriptSetSummary: async (s: Uint8Array[]) => ({ totals: s.map(() => unused), txCount: null }) } } as unknown as NetworkReader;
const index = { fresh: async () => index, walletHooks: () => hooks } as unknown as WebhookIndex;

function block(round: number): DomainEvent[] {
  return Array.from({ length: EVENTS }, (_, i) => {
    // 1 % pay a watched addr() wallet, the rest addresses nobody watches.
    const script = i % 100 === 0 ? p2wpkh((i / 100 + round * 7) % WALLETS) : p2wpkh(1_000_000 + i);
    const txid = `${round.toString(16).padStart(8, '0')}${i.toString(16).padStart(56, '0')}`;
    const tx = { txid, outputs: [{ script, value: 1000n }], inputs: [] } as unknown as Transaction;
    return { kind: 'address_touched', network: NET, txid, tx, delta: { script, txid, received: 1000n, sent: 0n }, confirmed: true, prevouts: [] };
  });
}

const pool = new DerivationPool({ threads: 1, queue: 1 });
let published = 0;
const watcher = new WalletWatcher(index, new Map([[NET, reader]]), new Map([[NET, params]]), pool, 10_000_000, silentLogger);
watcher.publishTo({ publish: () => void published++, subscribe: () => () => undefined });
const opened = Date.now();
await watcher.sync();
console.log(`${hooks.length} watched wallets opened in ${Date.now() - opened} ms (${watcher.scripts} window scripts)`);

// The reference: one window lookup per watched wallet per event (the watcher's first version), over the same windows.
const sets = hooks.map(() => new Set<string>());
for (let i = 0; i < WALLETS; i++) sets[i]!.add(addressKey(p2wpkh(i)));
const naive = (events: DomainEvent[]): number => {
  let hits = 0;
  for (const e of events) {
    if (e.kind !== 'address_touched') continue;
    const hex = addressKey(e.delta.script);
    for (const set of sets) if (set.has(hex)) hits++;
  }
  return hits;
};

for (let round = 0; round < ROUNDS; round++) {
  const events = block(round);
  const t0 = performance.now();
  for (const e of events) watcher.onEvent(e);
  await watcher.drain();
  const t1 = performance.now();
  const hits = naive(events);
  const t2 = performance.now();
  console.log(`round ${round + 1}: indexed ${(t1 - t0).toFixed(1)} ms a block (${(((t1 - t0) * 1000) / EVENTS).toFixed(2)} µs an event, ${published} wallet events so far); ` +
    `reference (a lookup per wallet) ${(t2 - t1).toFixed(1)} ms for the lookups alone (${hits} hits): ${((t2 - t1) / (t1 - t0)).toFixed(1)}x`);
}
await watcher.close();
