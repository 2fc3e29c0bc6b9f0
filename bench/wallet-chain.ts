/**
 * The wallet bench's chains, written straight into a store (no node): a wallet's 800 receive and 200 change
 * addresses take part in 10,000 txs. 8,000 pay a receive address from an outside funder; 2,000 spend a wallet output
 * to someone else with change to the change chain. Blocks of 200 txs, each with a coinbase holding the next block's
 * funding outputs. The wallet is a BIP84-style single-key account (benchWallet) or a 3-of-5 wsh(sortedmulti)
 * multipath wallet (benchMultisig); `extend` connects one more block (a new tip) without wallet txs.
 */
import { HDKey } from '@scure/bip32';
import type { NetworkParams } from '../src/chains/network-params.js';
import { getNetworkParams } from '../src/chains/networks.js';
import { ChainDerivation } from '../src/chains/wallet/wallet-derivation.js';
import { parseWalletDescriptor } from '../src/chains/wallet/wallet-descriptor.js';
import type { Transaction } from '../src/core/domain/chain-types.js';
import type { NetworkStore } from '../src/core/store/network-store.js';
import { block, coinbase, p2pkh, spend } from '../src/store/conformance/block-builder.js';

export const WALLET_PARAMS = getNetworkParams('BTCTEST', 'regtest');
export const MULTISIG_PARAMS = getNetworkParams('LTCTEST', 'regtest');
export const RECEIVE = 800;
export const CHANGE = 200;
export const TXS = 10_000;
const PER_BLOCK = 200;
const FUNDER = p2pkh(9_001);
const ELSEWHERE = p2pkh(9_002);
const TEST_VERSIONS = { public: 0x043587cf, private: 0x04358394 };

/** The account's public key (a fixed seed): a plain vpub is wpkh with chains 0 and 1. */
export function benchWallet(): string {
  const account = HDKey.fromMasterSeed(Buffer.alloc(32, 31), TEST_VERSIONS).derive("m/84'/1'/0'");
  const vpub = new HDKey({ versions: { public: 0x045f1cf6, private: 0x045f18bc }, depth: account.depth, index: account.index,
    parentFingerprint: account.parentFingerprint, chainCode: account.chainCode!, publicKey: account.publicKey! });
  return vpub.publicExtendedKey;
}

/** Five cosigners' BIP48 accounts (fixed seeds) with origins: 3-of-5 wsh(sortedmulti), receive and change. */
export function benchMultisig(): string {
  const keys = [71, 72, 73, 74, 75].map((seed) => {
    const master = HDKey.fromMasterSeed(Buffer.alloc(32, seed), TEST_VERSIONS);
    return `[${master.fingerprint.toString(16).padStart(8, '0')}/48h/1h/0h/2h]${master.derive("m/48'/1'/0'/2'").publicExtendedKey}/<0;1>/*`;
  });
  return `wsh(sortedmulti(3,${keys.join(',')}))`;
}

export interface WalletChainWritten {
  /** The wallet text (as a route takes it). */
  readonly wallet: string;
  /** Its 1,000 used scripts, receive chain first. */
  readonly scripts: readonly Uint8Array[];
  /** Connects one more block without wallet txs: a new tip. */
  extend(): Promise<void>;
}

/** Writes the chain of `wallet` into `network` (an empty, migrated store). */
export async function writeWalletChain(network: NetworkStore, params: NetworkParams = WALLET_PARAMS, wallet = benchWallet()): Promise<WalletChainWritten> {
  const parsed = parseWalletDescriptor(params, wallet);
  const receive = new ChainDerivation(parsed, 0);
  const change = new ChainDerivation(parsed, 1);
  const receiveScripts = Array.from({ length: RECEIVE }, (_, i) => receive.script(i));
  const changeScripts = Array.from({ length: CHANGE }, (_, i) => change.script(i));
  let prevHash = '0'.repeat(64);
  let height = 0;
  let time = 1_700_000_000;
  /** Outputs of the previous coinbase, one per tx of the next block. */
  let funding: { txid: string; vout: number }[] = [];
  /** The wallet's unspent outputs, oldest first. */
  const walletCoins: { txid: string; vout: number; value: bigint }[] = [];
  let made = 0;
  let spends = 0;
  let receives = 0;
  const connect = async (txs: Transaction[]): Promise<void> => {
    const cb = coinbase(Array.from({ length: PER_BLOCK }, () => ({ script: FUNDER, value: 50_000_000n })));
    const b = block(prevHash, [cb, ...txs], (time += 600));
    await network.connectBlocks([{ height, block: b }]);
    prevHash = b.header.hash;
    height += 1;
    funding = cb.outputs.map((_, vout) => ({ txid: cb.txid, vout }));
  };
  await connect([]);
  while (made < TXS) {
    const txs: Transaction[] = [];
    for (let i = 0; i < PER_BLOCK && made < TXS; i++, made++) {
      // Every fifth tx spends the wallet's oldest coin (once it has some): to someone else, change to the change chain.
      if (made % 5 === 4 && walletCoins.length > 0) {
        const coin = walletCoins.shift()!;
        const tx = spend([coin], [{ script: ELSEWHERE, value: coin.value / 2n }, { script: changeScripts[spends % CHANGE]!, value: coin.value / 2n - 1_000n }]);
        walletCoins.push({ txid: tx.txid, vout: 1, value: coin.value / 2n - 1_000n });
        spends += 1;
        txs.push(tx);
        continue;
      }
      const tx = spend([funding[i]!], [{ script: receiveScripts[receives++ % RECEIVE]!, value: 1_000_000n }, { script: FUNDER, value: 48_999_000n }]);
      walletCoins.push({ txid: tx.txid, vout: 0, value: 1_000_000n });
      txs.push(tx);
    }
    await connect(txs);
  }
  return { wallet, scripts: [...receiveScripts, ...changeScripts], extend: () => connect([]) };
}
