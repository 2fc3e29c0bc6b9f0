/**
 * The wallet bench's chain, written straight into a store (no node): a BIP84-style account's 800 receive and 200
 * change addresses take part in 10,000 txs. 8,000 pay a receive address from an outside funder; 2,000 spend a wallet
 * output to someone else with change to the change chain. Blocks of 200 txs, each with a coinbase holding the next
 * block's funding outputs.
 */
import { HDKey } from '@scure/bip32';
import { getNetworkParams } from '../src/chains/networks.js';
import { ChainDerivation } from '../src/chains/wallet/wallet-derivation.js';
import { parseWalletDescriptor } from '../src/chains/wallet/wallet-descriptor.js';
import type { Transaction } from '../src/core/domain/chain-types.js';
import type { NetworkStore } from '../src/core/store/network-store.js';
import { block, coinbase, p2pkh, spend } from '../src/store/conformance/block-builder.js';

export const WALLET_PARAMS = getNetworkParams('BTCTEST', 'regtest');
export const RECEIVE = 800;
export const CHANGE = 200;
export const TXS = 10_000;
const PER_BLOCK = 200;
const FUNDER = p2pkh(9_001);
const ELSEWHERE = p2pkh(9_002);

/** The account's public key (a fixed seed): a plain vpub is wpkh with chains 0 and 1. */
export function benchWallet(): string {
  const account = HDKey.fromMasterSeed(Buffer.alloc(32, 31), { public: 0x043587cf, private: 0x04358394 }).derive("m/84'/1'/0'");
  const vpub = new HDKey({ versions: { public: 0x045f1cf6, private: 0x045f18bc }, depth: account.depth, index: account.index,
    parentFingerprint: account.parentFingerprint, chainCode: account.chainCode!, publicKey: account.publicKey! });
  return vpub.publicExtendedKey;
}

/** Writes the chain into `network` (an empty, migrated store); returns the wallet text. */
export async function writeWalletChain(network: NetworkStore): Promise<string> {
  const wallet = benchWallet();
  const parsed = parseWalletDescriptor(WALLET_PARAMS, wallet);
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
  return wallet;
}
