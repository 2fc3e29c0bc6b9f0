/**
 * A regtest chain with what an Electrum server must get right, made on the node's wallet: addresses of each kind paid
 * in blocks, a spend between them, a chain of three unconfirmed txs (parent, child, grandchild: heights 0, -1, -1), a
 * mempool payment to a confirmed address, and an OP_RETURN output (which belongs to no scripthash).
 */
import { formatCoins, parseCoins } from '../../src/core/index.js';
import type { AddressType, RegtestNode } from './regtest-node.js';

export interface ElectrumScenario {
  /** Output scripts (hex) the wallet was paid to, in blocks and in the mempool. */
  readonly scripts: readonly string[];
  /** The mempool chain's txids, parent first. */
  readonly mempoolChain: readonly string[];
  /** A confirmed tx (not a coinbase) and its height. */
  readonly confirmed: { readonly txid: string; readonly height: number };
  /** The script of an OP_RETURN output in a block. */
  readonly opReturn: string;
}

export async function scriptOf(node: RegtestNode, address: string): Promise<string> {
  return (await node.wallet.call<{ scriptPubKey: string }>('getaddressinfo', [address])).scriptPubKey;
}

/** Spends output `vout` of `txid` to `to`, all but `fee` coins; signed by the wallet, sent to the node. */
export async function spendTo(node: RegtestNode, txid: string, vout: number, to: string, fee = '0.0001'): Promise<string> {
  const tx = await node.rpc.call<{ vout: { value: string }[] }>('getrawtransaction', [txid, true], { exactDecimals: true });
  const amount = formatCoins(parseCoins(String(tx.vout[vout]!.value)) - parseCoins(fee));
  const raw = await node.wallet.call<string>('createrawtransaction', [[{ txid, vout }], { [to]: amount }]);
  const signed = await node.wallet.call<{ hex: string }>('signrawtransactionwithwallet', [raw]);
  return node.rpc.call<string>('sendrawtransaction', [signed.hex]);
}

/** The output of `txid` paying `address`. */
export async function voutTo(node: RegtestNode, txid: string, script: string): Promise<number> {
  const tx = await node.rpc.call<{ vout: { n: number; scriptPubKey: { hex: string } }[] }>('getrawtransaction', [txid, true]);
  return tx.vout.find((o) => o.scriptPubKey.hex === script)!.n;
}

export async function makeElectrumScenario(node: RegtestNode): Promise<ElectrumScenario> {
  const types: AddressType[] = ['bech32', 'legacy', 'p2sh-segwit'];
  const addresses: string[] = [];
  for (const type of types) addresses.push(await node.newAddress(type));
  for (const [i, a] of addresses.entries()) await node.send(a, `${i + 1}.5`);
  const data = await node.wallet.call<string>('createrawtransaction', [[], { data: 'deadbeef' }]);
  // Locked so that no wallet send picks its coin before the wallet hears of it (test/integration/regtest-parity.test.ts).
  const funded = await node.wallet.call<{ hex: string }>('fundrawtransaction', [data, { lockUnspents: true }]);
  const signed = await node.wallet.call<{ hex: string }>('signrawtransactionwithwallet', [funded.hex]);
  const opReturnTx = await node.rpc.call<string>('sendrawtransaction', [signed.hex]);
  const [hash] = await node.mine(1);
  const height = await node.rpc.call<number>('getblockcount');
  // A spend between two of them, confirmed.
  const scripts = await Promise.all(addresses.map((a) => scriptOf(node, a)));
  const paid = await node.wallet.call<string>('sendtoaddress', [addresses[0]!, '0.25']);
  await node.mine(1);
  // The mempool chain: parent pays a new address, child spends that to another, grandchild to a third.
  const chainAddresses = [await node.newAddress('bech32'), await node.newAddress('bech32'), await node.newAddress('legacy')];
  const chainScripts = await Promise.all(chainAddresses.map((a) => scriptOf(node, a)));
  const parent = await node.send(chainAddresses[0]!, '2');
  const child = await spendTo(node, parent, await voutTo(node, parent, chainScripts[0]!), chainAddresses[1]!);
  const grandchild = await spendTo(node, child, 0, chainAddresses[2]!);
  // And a mempool payment to an address with confirmed history.
  await node.send(addresses[1]!, '0.125');
  const opReturn = (await node.rpc.call<{ vout: { scriptPubKey: { hex: string; type: string } }[] }>('getrawtransaction', [opReturnTx, true]))
    .vout.find((o) => o.scriptPubKey.type === 'nulldata')!.scriptPubKey.hex;
  void hash;
  return { scripts: [...scripts, ...chainScripts], mempoolChain: [parent, child, grandchild], confirmed: { txid: paid, height: height + 1 }, opReturn };
}
