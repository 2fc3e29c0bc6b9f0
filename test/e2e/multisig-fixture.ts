/* eslint-disable @typescript-eslint/no-explicit-any -- node replies are checked field by field */
/**
 * Multisig wallets for the e2e tests: cosigners of fixed seeds (BIP48 accounts m/48'/1'/0'/{1,2}'), a descriptor of
 * theirs, node descriptor wallets that each hold the descriptor with one cosigner's private key (importdescriptors:
 * receive and change chains, active), and spends as cosigners make them: a PSBT funded by one wallet, signed by two
 * (walletprocesspsbt on each), combined and finalised. The node wallet's own view (balances, per-tx nets, unspent
 * outputs and address paths) is what Outpoint's answers must equal.
 */
import { HDKey } from '@scure/bip32';
import { getNetworkParams, scriptToAddress, type NetworkParams } from '../../src/chains/addressing.js';
import { ChainDerivation } from '../../src/chains/wallet/wallet-derivation.js';
import { parseWalletDescriptor } from '../../src/chains/wallet/wallet-descriptor.js';
import type { Sats } from '../../src/core/domain/money.js';
import type { RpcClient } from '../../src/node/rpc/rpc-client.js';
import type { RegtestNode } from '../helpers/regtest-node.js';
import { sats, withChecksum } from './wallet-fixture.js';

const TEST_VERSIONS = { public: 0x043587cf, private: 0x04358394 };
/** How far the node wallets look on each chain: past every index the tests pay. */
const NODE_RANGE = 40;

/** One cosigner: a seed's BIP48 account for a script type (1: sh(wsh), 2: wsh). */
export class Cosigner {
  readonly fingerprint: string;
  readonly account: HDKey;

  constructor(seed: number, readonly scriptType: 1 | 2) {
    const master = HDKey.fromMasterSeed(Buffer.alloc(32, seed), TEST_VERSIONS);
    this.fingerprint = master.fingerprint.toString(16).padStart(8, '0');
    this.account = master.derive(`m/48'/1'/0'/${scriptType}'`);
  }

  get originPath(): string {
    return `48h/1h/0h/${this.scriptType}h`;
  }

  /** The KEY with its origin: public, or with the private key for a signing wallet. */
  key(path: string, secret = false): string {
    return `[${this.fingerprint}/${this.originPath}]${secret ? this.account.privateExtendedKey : this.account.publicExtendedKey}/${path}`;
  }
}

export interface NodeView {
  /** Per txid: the wallet's net (amount + fee) and block height (null in the mempool). */
  readonly net: Map<string, { net: Sats; height: number | null }>;
  readonly unspent: any[];
  readonly balances: { trusted: string; untrusted_pending: string };
}

/** A k-of-n descriptor of `cosigners` written by `form` around its keys, and the node wallets of its first k signers. */
export class MultisigWallet {
  readonly signers: RpcClient[] = [];
  private readonly derivations: ChainDerivation[];

  constructor(
    readonly name: string,
    readonly cosigners: readonly Cosigner[],
    private readonly form: (keys: readonly string[]) => string,
    readonly params: NetworkParams = getNetworkParams('BTCTEST', 'regtest'),
  ) {
    const parsed = parseWalletDescriptor(params, this.descriptor('<0;1>/*'));
    this.derivations = [0, 1].map((chain) => new ChainDerivation(parsed, chain));
  }

  /** The public descriptor of `path` (`<0;1>/*`, `0/*`), without checksum. */
  descriptor(path: string, secretOf = -1): string {
    return this.form(this.cosigners.map((c, i) => c.key(path, i === secretOf)));
  }

  /** The address at chain/index, derived by our code (checked against the node's deriveaddresses). */
  address(chain: number, index: number): string {
    return scriptToAddress(this.params, this.derivations[chain]!.script(index))!;
  }

  /** A blank descriptor wallet per signer, holding both chains with that signer's private key (active). */
  async importInto(node: RegtestNode, signers: number): Promise<void> {
    for (let s = 0; s < signers; s++) {
      const wallet = `${this.name}-${s}`;
      await node.rpc.call('createwallet', [wallet, false, true, '', false, true, true]);
      const client = node.client({ url: `${node.rpcUrl}wallet/${wallet}` });
      const requests = [0, 1].map((chain) => ({ desc: withChecksum(this.descriptor(`${chain}/*`, s)), timestamp: 0, range: [0, NODE_RANGE], active: true, internal: chain === 1 }));
      const results = await client.call<{ success: boolean; error?: { message: string } }[]>('importdescriptors', [requests]);
      for (const r of results) if (!r.success) throw new Error(`importdescriptors ${wallet}: ${r.error?.message}`);
      this.signers.push(client);
    }
  }

  /**
   * Pays `outputs` from the wallet as its cosigners do: the first signer's wallet funds a PSBT (change to its change
   * chain), each signer signs its own copy, the copies are combined and finalised, the node broadcasts the result.
   */
  async spend(node: RegtestNode, outputs: Record<string, string>): Promise<string> {
    const [funder] = this.signers;
    const funded = await funder!.call<{ psbt: string }>('walletcreatefundedpsbt', [[], [outputs], 0, { fee_rate: 3 }]);
    const signed = await Promise.all(this.signers.map(async (w) => (await w.call<{ psbt: string; complete: boolean }>('walletprocesspsbt', [funded.psbt])).psbt));
    const combined = await node.rpc.call<string>('combinepsbt', [signed]);
    const final = await node.rpc.call<{ hex: string; complete: boolean }>('finalizepsbt', [combined]);
    if (!final.complete) throw new Error(`${this.name}: the PSBT is not complete after ${signed.length} signers`);
    return node.rpc.call<string>('sendrawtransaction', [final.hex]);
  }

  /** The first signer wallet's view: per-tx nets and heights, unspent outputs, balances. */
  async nodeView(): Promise<NodeView> {
    const wallet = this.signers[0]!;
    const list = await wallet.call<any[]>('listtransactions', ['*', 1000, 0, true], { exactDecimals: true });
    const net = new Map<string, { net: Sats; height: number | null }>();
    for (const txid of new Set(list.map((t) => t.txid as string))) {
      const tx = await wallet.call<any>('gettransaction', [txid, true], { exactDecimals: true });
      net.set(txid, { net: sats(tx.amount) + (tx.fee === undefined ? 0n : sats(tx.fee)), height: tx.blockheight ?? null });
    }
    const unspent = await wallet.call<any[]>('listunspent', [0], { exactDecimals: true });
    const balances = (await wallet.call<any>('getbalances', [], { exactDecimals: true })).mine;
    return { net, unspent, balances };
  }
}

/** Confirmed nets summed by sign: what the summary's `confirmed_received_external` / `confirmed_sent_external` must be. */
export function externalFlows(view: NodeView): { received: Sats; sent: Sats } {
  let received = 0n;
  let sent = 0n;
  for (const { net, height } of view.net.values()) {
    if (height === null) continue;
    if (net > 0n) received += net;
    else sent -= net;
  }
  return { received, sent };
}
