/**
 * The derivation cache's slices count key derivations, not addresses: a 20-key multisig wallet yields to the event
 * loop after 3 addresses (60 derivations), a single-key one after 64, so a large wallet's first read lets other
 * requests run in between whatever its number of keys.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HDKey } from '@scure/bip32';
import { getNetworkParams } from '../../chains/networks.js';
import { parseWalletDescriptor } from '../../chains/wallet/wallet-descriptor.js';
import { WalletKeys } from './derivation-cache.js';

const PARAMS = getNetworkParams('BTCTEST', 'regtest');
const tpub = (seed: number): string => HDKey.fromMasterSeed(Buffer.alloc(32, seed), { public: 0x043587cf, private: 0x04358394 }).publicExtendedKey;

/** How many scripts the first slice derived (it runs before range's first yield), and how many in the end. */
async function firstSlice(text: string, want: number): Promise<{ first: number; all: number }> {
  const keys = new WalletKeys(parseWalletDescriptor(PARAMS, text), () => undefined);
  const pending = keys.range(0, 0, want);
  const first = keys.size;
  await pending;
  return { first, all: keys.size };
}

describe('derivation slices', () => {
  it('a slice is about 64 key derivations: 64 single-key addresses, 3 of a 20-key multisig, 64 combo indexes (256 scripts)', async () => {
    assert.deepEqual(await firstSlice(`wpkh(${tpub(1)}/0/*)`, 100), { first: 64, all: 100 });
    const twenty = Array.from({ length: 20 }, (_, i) => `${tpub(i + 1)}/0/*`).join(',');
    assert.deepEqual(await firstSlice(`wsh(multi(2,${twenty}))`, 10), { first: 3, all: 10 });
    assert.deepEqual(await firstSlice(`combo(${tpub(1)}/0/*)`, 400), { first: 256, all: 400 }, "combo: 64 indexes' four forms");
  });
});
