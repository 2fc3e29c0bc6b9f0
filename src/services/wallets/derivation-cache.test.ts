import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { HDKey } from '@scure/bip32';
import { getNetworkParams } from '../../chains/networks.js';
import { ChainDerivation } from '../../chains/wallet/wallet-derivation.js';
import { parseWalletDescriptor, type WalletDescriptor } from '../../chains/wallet/wallet-descriptor.js';
import { BudgetSpentError, ServerBusyError } from '../../core/domain/errors.js';
import { DerivationCache, WALLET_OVERHEAD_BYTES, WalletKeys, type Charge } from './derivation-cache.js';
import { DerivationPool } from './derivation-pool.js';

const LTCTEST = getNetworkParams('LTCTEST', 'test');
const MASTER = HDKey.fromMasterSeed(Buffer.from('0102030405060708090a0b0c0d0e0f10', 'hex'), { public: 0x043587cf, private: 0x04358394 });
let child = 0;
/** A tpub nobody derived from yet: the master's public key with a chain code of its own (no curve arithmetic to make). */
function freshTpub(): string {
  const chainCode = new Uint8Array(32);
  new DataView(chainCode.buffer).setUint32(0, ++child);
  return new HDKey({ versions: { public: 0x043587cf, private: 0x04358394 }, publicKey: MASTER.publicKey!, chainCode }).publicExtendedKey;
}
const fresh = (): WalletDescriptor => parseWalletDescriptor(LTCTEST, freshTpub());
const free: Charge = async () => undefined;
const pool = new DerivationPool({ threads: 1, queue: 4 });

after(() => pool.close());

describe('wallet derivation on the pool, charged and cached in bytes', () => {
  it('derives what the chain derivation of the descriptor derives, on the thread', async () => {
    const wallet = fresh();
    const keys = new WalletKeys(wallet, pool, () => undefined);
    const got = await keys.range(1, 0, 70, free);
    const expected = new ChainDerivation(wallet, 1);
    for (let i = 0; i < 70; i++) assert.deepEqual(got[i], expected.script(i), `1/${i}`);
    assert.equal(keys.path(1, 69), '1/69');
  });

  it('a refused charge stops the derivation; what was derived is kept and the retry derives only the rest', async () => {
    const keys = new WalletKeys(fresh(), pool, () => undefined);
    let charged = 0;
    const capped: Charge = async (n) => {
      if (charged >= 100) throw new BudgetSpentError('spent', 5);
      charged += n;
    };
    await assert.rejects(keys.range(0, 0, 500, capped), BudgetSpentError);
    const before = charged;
    let rest = 0;
    await keys.range(0, 0, 500, async (n) => void (rest += n));
    assert.ok(before >= 100 && before < 200, `${before} charged before the refusal`);
    assert.equal(rest + before, 500 + 1, 'the rest and nothing twice (one path step, 500 addresses)');
  });

  it('a request waiting on another\'s derivation pays nothing, and derives itself if that one was refused', async () => {
    const keys = new WalletKeys(fresh(), pool, () => undefined);
    const refusing: Charge = async () => {
      throw new BudgetSpentError('spent', 5);
    };
    let paid = 0;
    const [first, second] = await Promise.allSettled([keys.range(0, 0, 40, refusing), keys.range(0, 0, 40, async (n) => void (paid += n))]);
    assert.equal(first.status, 'rejected');
    assert.equal(second.status, 'fulfilled');
    assert.equal(paid, 41);
  });

  it('admits threads + queue wallets at once; one more is ServerBusyError with a wait', () => {
    const small = new DerivationPool({ threads: 1, queue: 1 });
    const tickets = [small.admit(1000), small.admit(1000)];
    assert.throws(() => small.admit(10), (e: unknown) => e instanceof ServerBusyError && e.retryAfter >= 1);
    tickets[0]!.release();
    small.admit(10).release();
    tickets[1]!.release();
    assert.equal(small.inFlight, 0);
    void small.close();
  });

  it('holds at most its bytes: 1,000 one-address wallets, counted as they really weigh', async () => {
    const bound = 128 * 1024;
    const cache = new DerivationCache(pool, bound);
    const oneAddress = async (keys: WalletKeys): Promise<void> => {
      await Promise.all([keys.range(0, 0, 1, free), keys.range(1, 0, 1, free)]);
    };
    for (let i = 0; i < 1000; i++) await oneAddress(cache.get(`w${i}`, fresh()));
    assert.ok(cache.bytes <= bound, `${cache.bytes} bytes`);
    assert.ok(cache.wallets > 10 && cache.wallets < 60, `${cache.wallets} wallets`);

    // The overhead a wallet is counted with covers what one weighs (heap and array buffers), its key objects included.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const used = (): number => {
      gc();
      gc();
      return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    };
    const texts = Array.from({ length: 1000 }, freshTpub);
    const start = used();
    const held: WalletKeys[] = [];
    for (const text of texts) {
      const keys = new WalletKeys(parseWalletDescriptor(LTCTEST, text), pool, () => undefined);
      await oneAddress(keys);
      held.push(keys);
    }
    const perWallet = (used() - start) / held.length;
    console.log(`a one-address wallet: ${perWallet.toFixed(0)} bytes (heap and array buffers), counted ${held[0]!.bytes}`);
    assert.ok(perWallet < held[0]!.bytes, `${perWallet.toFixed(0)} bytes a wallet, counted ${held[0]!.bytes} (overhead ${WALLET_OVERHEAD_BYTES})`);
  });
});
