/**
 * Wallet derivation on the pool's threads, charged per key derivation and cached in bytes: every form the descriptor
 * parser accepts derives there what ChainDerivation (the reference, on the calling thread) derives; jobs are about
 * KEYS_PER_JOB key derivations whatever the number of keys (64 single-key addresses were once one slice, and a
 * 20-key wallet's 64 addresses 1,280 derivations); what a wallet is counted as weighing covers what it weighs.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { HDKey } from '@scure/bip32';
import { toHex } from '../../chains/hash.js';
import { getNetworkParams } from '../../chains/networks.js';
import { ChainDerivation } from '../../chains/wallet/wallet-derivation.js';
import { parseWalletDescriptor, type WalletDescriptor } from '../../chains/wallet/wallet-descriptor.js';
import { BudgetSpentError, ServerBusyError } from '../../core/domain/errors.js';
import { DerivationCache } from './derivation-cache.js';
import { DerivationPool } from './derivation-pool.js';
import { KEY_OVERHEAD_BYTES, WALLET_OVERHEAD_BYTES, WalletKeys, type Charge } from './wallet-keys.js';

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
const threeOfFive = (): string => `wsh(sortedmulti(3,${Array.from({ length: 5 }, () => `${freshTpub()}/<0;1>/*`).join(',')}))`;
const free: Charge = async () => undefined;
const pool = new DerivationPool({ threads: 1, queue: 4 });
const PUB = MASTER.deriveChild(9).publicKey!;
const UNCOMPRESSED = secp256k1.Point.fromBytes(MASTER.deriveChild(10).publicKey!).toBytes(false);

after(() => pool.close());

/** The charges a first read of positions [0, to) of chain 0 makes, in order. */
async function charges(text: string, to: number): Promise<number[]> {
  const keys = new WalletKeys(parseWalletDescriptor(LTCTEST, text), pool, () => undefined);
  const seen: number[] = [];
  await keys.range(0, 0, to, async (n) => void seen.push(n));
  return seen;
}

describe('wallet derivation on the pool, charged and cached in bytes', () => {
  it('derives what the chain derivation of the descriptor derives, on the thread, for every form: scripts and paths', async () => {
    const texts = [
      freshTpub(),
      threeOfFive(),
      `sh(multi(2,${freshTpub()}/7/<0;1>/*,${toHex(PUB)},${toHex(UNCOMPRESSED)}))`,
      `combo(${freshTpub()}/0/*)`,
      `combo(${toHex(UNCOMPRESSED)})`,
      `tr(${freshTpub()}/1/*)`,
      `pkh(${freshTpub()}/0/5)`,
      `wpkh(${toHex(PUB)})`,
      `sh(wpkh(${freshTpub()}))`,
      'raw(6a0401020304)',
    ];
    for (const text of texts) {
      const wallet = parseWalletDescriptor(LTCTEST, text);
      const keys = new WalletKeys(wallet, pool, () => undefined);
      const positions = Math.min(40 * wallet.width, wallet.ranged ? Infinity : wallet.width);
      for (let chain = 0; chain < wallet.chains.length; chain++) {
        const got = await keys.range(chain, 0, positions, free);
        const expected = new ChainDerivation(wallet, chain);
        for (let p = 0; p < positions; p++) {
          assert.equal(toHex(got[p]!), toHex(expected.script(p)), `${wallet.descriptor} ${chain}/${p}`);
          assert.equal(keys.path(chain, p), expected.path(p), `${wallet.descriptor} path ${chain}/${p}`);
        }
      }
    }
  });

  it('charges each key derivation: path steps, then n keys an index of a k-of-n wallet; nothing for plain keys', async () => {
    // Single key: 1 path step (chain 0), 100 addresses in jobs of 32.
    assert.deepEqual(await charges(freshTpub(), 100), [1, 32, 32, 32, 4]);
    // 3-of-5: each key's multipath step, then 6 indexes (30 derivations) a job: 20 indexes are 5 + 100.
    assert.deepEqual(await charges(threeOfFive(), 20), [1, 1, 1, 1, 1, 30, 30, 30, 10]);
    // 20 keys: one index (20 derivations) a job.
    const twenty = Array.from({ length: 20 }, () => `${freshTpub()}/0/*`).join(',');
    assert.deepEqual(await charges(`wsh(multi(2,${twenty}))`, 3), [...Array<number>(20).fill(1), 20, 20, 20]);
    // combo: one derivation an index for its four forms: 400 positions are 100 indexes.
    assert.deepEqual(await charges(`combo(${freshTpub()}/0/*)`, 400), [1, 32, 32, 32, 4]);
    // A key given as it is: nothing derived, nothing charged, nothing admitted.
    assert.deepEqual(await charges(`wpkh(${toHex(PUB)})`, 1), []);
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
    for (let i = 0; i < 1000; i++) await oneAddress(cache.get(`w${i}`, fresh()));
    assert.ok(cache.bytes <= bound, `${cache.bytes} bytes`);
    assert.ok(cache.wallets > 10 && cache.wallets < 60, `${cache.wallets} wallets`);
  });

  it('a wallet is counted as at least what it weighs (heap and array buffers): single-key and 3-of-5, one address each', async () => {
    const single = await weigh(1000, freshTpub);
    console.log(`a one-address wallet: ${single.measured.toFixed(0)} bytes (heap and array buffers), counted ${single.counted}`);
    assert.ok(single.measured < single.counted, `${single.measured.toFixed(0)} bytes a wallet, counted ${single.counted} (overhead ${WALLET_OVERHEAD_BYTES})`);
    const multi = await weigh(200, threeOfFive);
    console.log(`a one-address 3-of-5 wallet: ${multi.measured.toFixed(0)} bytes (heap and array buffers), counted ${multi.counted}`);
    assert.ok(multi.measured < multi.counted, `${multi.measured.toFixed(0)} bytes a wallet, counted ${multi.counted} (${KEY_OVERHEAD_BYTES} a key past the first)`);
  });
});

/** One address of each chain, as a fresh wallet's smallest read. */
async function oneAddress(keys: WalletKeys): Promise<void> {
  await Promise.all([keys.range(0, 0, 1, free), keys.range(1, 0, 1, free)]);
}

/** What `count` one-address wallets of `text()` weigh each, measured and as counted. */
async function weigh(count: number, text: () => string): Promise<{ measured: number; counted: number }> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const used = (): number => {
    gc();
    gc();
    return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  };
  // Warm: the code of these forms compiled, so that what is measured is the wallets.
  for (const t of Array.from({ length: 10 }, text)) await oneAddress(new WalletKeys(parseWalletDescriptor(LTCTEST, t), pool, () => undefined));
  const texts = Array.from({ length: count }, text);
  const start = used();
  const held: WalletKeys[] = [];
  for (const t of texts) {
    const keys = new WalletKeys(parseWalletDescriptor(LTCTEST, t), pool, () => undefined);
    await oneAddress(keys);
    held.push(keys);
  }
  return { measured: (used() - start) / held.length, counted: held[0]!.bytes };
}
