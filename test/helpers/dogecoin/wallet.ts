/**
 * A test wallet for the stand-in (which runs like -disablewallet): P2PKH keys, coin selection over the
 * stand-in's UTXO set and mempool, signed transactions built by our serializer. Payments go through the
 * stand-in's `sendrawtransaction` over RPC, like any client's.
 */
import type { Transaction, TxOutput } from '../../../src/core/domain/chain-types.js';
import type { NetworkParams } from '../../../src/chains/network-params.js';
import { addressToScript, classifyScript, pubkeyToP2pkhAddress } from '../../../src/chains/addressing.js';
import { toHex } from '../../../src/chains/hash.js';
import { parseCoins } from '../../../src/core/domain/money.js';
import type { RpcClient } from '../../../src/node/rpc/rpc-client.js';
import { outpointKey } from './chain-state.js';
import type { DogecoinCore } from './dogecoin-core.js';
import { DogeKey } from './keys.js';
import { REGTEST, isDust } from './regtest-rules.js';
import { buildTx, p2pkhScriptSig, sighashPreimage, type DraftInput } from './sighash.js';

export interface WalletCoin {
  readonly txid: string;
  readonly vout: number;
  readonly value: bigint;
  readonly script: Uint8Array;
  readonly confirmed: boolean;
}

export interface PaymentRequest {
  readonly outputs: readonly { readonly address?: string; readonly script?: Uint8Array; readonly value: bigint }[];
  /** Spend exactly these (else: coin selection, largest first). */
  readonly inputs?: readonly { readonly txid: string; readonly vout: number }[];
  /** Koinu per 1000 bytes; default 0.01 DOGE/kB, the 1.14.6 recommendation. */
  readonly feePerKb?: bigint;
  /** An explicit absolute fee (overrides feePerKb). */
  readonly fee?: bigint;
  /** Input nSequence: below 0xfffffffe signals BIP125 replaceability. */
  readonly sequence?: number;
}

/** An upper bound of a P2PKH input (73-byte signature, compressed key) and a P2PKH output. */
const INPUT_BYTES = 149;
const OUTPUT_BYTES = 34;

export class StandInWallet {
  readonly #keys = new Map<string, DogeKey>();

  constructor(
    private readonly core: DogecoinCore,
    private readonly rpc: RpcClient,
  ) {}

  get params(): NetworkParams {
    return this.core.params;
  }

  newAddress(): string {
    const key = DogeKey.random();
    this.#keys.set(toHex(key.pubkeyHash), key);
    return pubkeyToP2pkhAddress(this.params, key.pubkey);
  }

  #keyFor(script: Uint8Array): DogeKey | undefined {
    return classifyScript(script) === 'pubkeyhash' ? this.#keys.get(toHex(script.subarray(3, 23))) : undefined;
  }

  /** Coins this wallet can spend now: mature confirmed ones and mempool outputs, none already spent in the mempool. */
  unspent(): WalletCoin[] {
    const { chain, mempool } = this.core;
    const spendHeight = chain.tip.height + 1;
    const out: WalletCoin[] = [];
    for (const c of chain.utxos.values()) {
      if (!this.#keyFor(c.script) || mempool.spends.has(outpointKey(c.txid, c.vout))) continue;
      if (c.coinbase && spendHeight - c.height < REGTEST.coinbaseMaturity) continue;
      out.push({ ...c, confirmed: true });
    }
    for (const { tx } of mempool.entries.values()) {
      tx.outputs.forEach((o, vout) => {
        if (this.#keyFor(o.script) && !mempool.spends.has(outpointKey(tx.txid, vout))) out.push({ txid: tx.txid, vout, value: o.value, script: o.script, confirmed: false });
      });
    }
    return out.sort((a, b) => Number(Number(b.confirmed) - Number(a.confirmed)) || (b.value > a.value ? 1 : b.value < a.value ? -1 : 0));
  }

  /** A signed payment (not broadcast); change above the soft dust limit goes to a fresh address. */
  createTx(request: PaymentRequest): Transaction {
    const outputs: TxOutput[] = request.outputs.map((o) => ({ value: o.value, script: o.script ?? addressToScript(this.params, o.address!) }));
    const want = outputs.reduce((s, o) => s + o.value, 0n);
    const available = this.unspent();
    const coins: WalletCoin[] = request.inputs
      ? request.inputs.map((i) => this.#coin(i.txid, i.vout))
      : [];
    const feeFor = (inputs: number): bigint =>
      request.fee ?? ((request.feePerKb ?? 1_000_000n) * BigInt(10 + inputs * INPUT_BYTES + (outputs.length + 1) * OUTPUT_BYTES) + 999n) / 1000n;
    if (!request.inputs) {
      for (const coin of available) {
        if (coins.reduce((s, c) => s + c.value, 0n) >= want + feeFor(coins.length)) break;
        coins.push(coin);
      }
    }
    const have = coins.reduce((s, c) => s + c.value, 0n);
    const change = have - want - feeFor(coins.length);
    if (change < 0n) throw new Error(`wallet: insufficient funds (${have} koinu for ${want} + fee)`);
    const policy = this.core.options.policy;
    if (!isDust({ value: change, script: new Uint8Array() }, policy.softDustLimit)) {
      outputs.push({ value: change, script: addressToScript(this.params, this.newAddress()) });
    }
    return this.sign(coins.map((c) => ({ txid: c.txid, vout: c.vout, ...(request.sequence !== undefined ? { sequence: request.sequence } : {}) })), outputs);
  }

  /** Signs every input (each must pay one of this wallet's keys). */
  sign(inputs: readonly DraftInput[], outputs: readonly TxOutput[]): Transaction {
    const unsigned = buildTx({ inputs, outputs });
    const scriptSigs = inputs.map((input, index) => {
      const coin = this.#coin(input.txid, input.vout);
      const key = this.#keyFor(coin.script);
      if (!key) throw new Error(`wallet: no key for ${input.txid}:${input.vout}`);
      return p2pkhScriptSig(key.sign(sighashPreimage(unsigned, index, coin.script)), key.pubkey);
    });
    return buildTx({ inputs: inputs.map((input, i) => ({ ...input, scriptSig: scriptSigs[i]! })), outputs });
  }

  /** Pays `amount` (decimal DOGE) to the address through sendrawtransaction; returns the txid. */
  async send(address: string, amount: string, options: Omit<PaymentRequest, 'outputs'> = {}): Promise<string> {
    const tx = this.createTx({ ...options, outputs: [{ address, value: parseCoins(amount) }] });
    return this.rpc.call<string>('sendrawtransaction', [toHex(tx.raw)]);
  }

  #coin(txid: string, vout: number): WalletCoin {
    const confirmed = this.core.chain.utxos.get(outpointKey(txid, vout));
    if (confirmed) return { ...confirmed, confirmed: true };
    const pooled = this.core.mempool.output(txid, vout);
    if (pooled) return { txid, vout, value: pooled.value, script: pooled.script, confirmed: false };
    throw new Error(`wallet: ${txid}:${vout} is not an unspent output`);
  }
}
