/**
 * Real signed transactions in bulk, for the real-node mempool bench and tests: one P2PKH key holds every coin, and each coin is spent
 * by its own 1-input tx (a payment to one of the watched addresses or to a fresh one, and change to a fresh one),
 * signed here with OpenSSL (test/helpers/dogecoin's legacy sighash: standard on bitcoind and litecoind alike), so
 * 100,000 txs take seconds to make instead of the minutes of `signrawtransactionwithwallet` calls. The node checks
 * every signature when it accepts them.
 */
import { randomBytes } from 'node:crypto';
import { pubkeyToP2pkhAddress, type NetworkParams } from '../../src/chains/addressing.js';
import { p2pkhScript } from '../../src/chains/address/base58-address.js';
import type { Transaction, TxOutput } from '../../src/core/domain/chain-types.js';
import { DogeKey } from './dogecoin/keys.js';
import { buildTx, p2pkhScriptSig, sighashPreimage } from './dogecoin/sighash.js';
import type { RegtestNode } from './regtest-node.js';

export interface Coin {
  readonly txid: string;
  readonly vout: number;
  readonly value: bigint;
}

export class SpendMaker {
  readonly key = DogeKey.random();
  readonly script = p2pkhScript(this.key.pubkeyHash);

  constructor(readonly params: NetworkParams) {}

  get address(): string {
    return pubkeyToP2pkhAddress(this.params, this.key.pubkey);
  }

  /** `coin` into `count` outputs of `each` back to this key, the rest (less `fee`) as change to it. */
  fanOut(coin: Coin, count: number, each: bigint, fee: bigint): Transaction {
    const change = coin.value - each * BigInt(count) - fee;
    if (change < 0n) throw new RangeError(`a coin of ${coin.value} cannot make ${count} × ${each}`);
    const outputs: TxOutput[] = Array.from({ length: count }, () => ({ value: each, script: this.script }));
    if (change > 10_000n) outputs.push({ value: change, script: this.script });
    return this.sign(coin, outputs);
  }

  /** A payment of most of `coin` to `payee` (a script), change to a fresh address, `fee` to the miner. */
  pay(coin: Coin, payee: Uint8Array, fee: bigint): Transaction {
    const paid = (coin.value - fee) / 2n;
    return this.sign(coin, [
      { value: paid, script: payee },
      { value: coin.value - fee - paid, script: freshScript() },
    ]);
  }

  private sign(coin: Coin, outputs: readonly TxOutput[]): Transaction {
    const input = { txid: coin.txid, vout: coin.vout };
    const unsigned = buildTx({ inputs: [input], outputs });
    const scriptSig = p2pkhScriptSig(this.key.sign(sighashPreimage(unsigned, 0, this.script)), this.key.pubkey);
    return buildTx({ inputs: [{ ...input, scriptSig }], outputs });
  }
}

/** A P2PKH script of a random key hash: an address nobody holds the key of (the bench never spends it). */
export function freshScript(): Uint8Array {
  return p2pkhScript(randomBytes(20));
}

/**
 * Funding: coinbases mined to the key, each fanned out into 2,000 coins by a signed tx, those mined. What is then
 * spent, one tx per coin, is a mempool of independent real txs of the node's own validation.
 */
/** Outputs per fan-out tx: ~68 kB of P2PKH outputs, under the 100 kvB standard size. */
const PER_FAN_OUT = 2_000;
const COIN_VALUE = 100_000n;
const FAN_OUT_FEE = 100_000n;
const COINBASE_MATURITY = 100;
/** Regtest's subsidy halves every 150 blocks (Bitcoin and Litecoin alike). */
const subsidy = (height: number): bigint => 5_000_000_000n >> BigInt(Math.floor(height / 150));

export async function fundCoins(node: RegtestNode, maker: SpendMaker, count: number): Promise<Coin[]> {
  const fanOuts = Math.ceil(count / PER_FAN_OUT);
  const start = await node.rpc.call<number>('getblockcount');
  const hashes = await node.mine(fanOuts + COINBASE_MATURITY, maker.address);
  const blocks = await node.rpc.batch<{ tx: string[] }>(hashes.slice(0, fanOuts).map((hash) => ({ method: 'getblock', params: [hash, 1] })));
  const txs = blocks.map((block, i) => {
    if (block instanceof Error) throw block;
    const coinbase = { txid: block.tx[0]!, vout: 0, value: subsidy(start + 1 + i) };
    return maker.fanOut(coinbase, Math.min(PER_FAN_OUT, count - i * PER_FAN_OUT), COIN_VALUE, FAN_OUT_FEE);
  });
  await sendAll(node, txs.map((tx) => Buffer.from(tx.raw).toString('hex')));
  while ((await node.rpc.call<{ size: number }>('getmempoolinfo')).size > 0) await node.mine(1, maker.address);
  return txs.flatMap((tx) => tx.outputs.slice(0, PER_FAN_OUT).filter((o) => o.value === COIN_VALUE).map((o, vout) => ({ txid: tx.txid, vout, value: o.value })));
}

/** sendrawtransaction in batches of `batch`; every tx must be accepted. Returns when the node has them all. */
export async function sendAll(node: RegtestNode, hexes: readonly string[], batch = 500): Promise<void> {
  for (let i = 0; i < hexes.length; i += batch) {
    const replies = await node.rpc.batch<string>(hexes.slice(i, i + batch).map((hex) => ({ method: 'sendrawtransaction', params: [hex] })));
    const refused = replies.find((reply) => reply instanceof Error);
    if (refused) throw refused;
  }
}
