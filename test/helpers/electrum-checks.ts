/**
 * Every Electrum method against answers computed from the node itself (electrum-oracle.ts, the node's own RPC), for
 * one connection and protocol version: what the methods test runs for each coin, engine and version.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { parseCoins } from '../../src/core/index.js';
import { compactFeeHistogram } from '../../src/services/electrum/electrum-fee-histogram.js';
import type { RegtestNode } from './regtest-node.js';
import { ElectrumCallError, type ElectrumTestClient } from './electrum-test-client.js';
import { nodeElectrumView } from './electrum-oracle.js';
import type { ElectrumScenario } from './electrum-scenario.js';

const sha256d = (b: Buffer): Buffer => createHash('sha256').update(createHash('sha256').update(b).digest()).digest();
const rev = (hex: string): Buffer => Buffer.from(hex, 'hex').reverse();
const scripthash = (scriptHex: string): string => createHash('sha256').update(Buffer.from(scriptHex, 'hex')).digest().reverse().toString('hex');

/** Folds a merkle branch (display hex, deepest first) over a leaf at `pos`: the root in display hex. */
export function foldBranch(leafHex: string, branch: readonly string[], pos: number): string {
  let hash = rev(leafHex);
  for (const [i, sibling] of branch.entries()) {
    hash = ((pos >> i) & 1) ? sha256d(Buffer.concat([rev(sibling), hash])) : sha256d(Buffer.concat([hash, rev(sibling)]));
  }
  return Buffer.from(hash).reverse().toString('hex');
}

/** The merkle root over block hashes 0..n-1 (display hex), the naive way: every level whole. */
function naiveRoot(hashesHex: readonly string[]): string {
  let level = hashesHex.map(rev);
  while (level.length > 1) {
    const up: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) up.push(sha256d(Buffer.concat([level[i]!, level[i + 1] ?? level[i]!])));
    level = up;
  }
  return Buffer.from(level[0]!).reverse().toString('hex');
}

export async function rejectsWith(call: Promise<unknown>, code: number, message?: RegExp): Promise<void> {
  await assert.rejects(call, (e: unknown) => e instanceof ElectrumCallError && e.code === code && (!message || message.test(e.rpcMessage)));
}

export async function checkScripthashes(client: ElectrumTestClient, node: RegtestNode, scenario: ElectrumScenario, version: '1.4' | '1.6'): Promise<void> {
  const views = await nodeElectrumView(node.rpc, scenario.scripts);
  for (const script of scenario.scripts) {
    const view = views.get(script)!;
    const sh = scripthash(script);
    assert.deepEqual(await client.request('blockchain.scripthash.get_history', [sh]), view.history, `history of ${script}`);
    assert.deepEqual(await client.request('blockchain.scripthash.get_mempool', [sh]), view.mempool, `mempool of ${script}`);
    assert.deepEqual(await client.request('blockchain.scripthash.get_balance', [sh]), { confirmed: view.confirmed, unconfirmed: view.unconfirmed }, `balance of ${script}`);
    assert.deepEqual(await client.request('blockchain.scripthash.listunspent', [sh]), view.utxos, `unspent of ${script}`);
    assert.equal(await client.request('blockchain.scripthash.subscribe', [sh]), view.status, `status of ${script}`);
  }
  // The mempool chain: the parent at height 0, its descendants at -1, each with its fee.
  const chain = views.get(scenario.scripts.at(-2)!)!.mempool;
  assert.deepEqual(chain.map((i) => i.height).sort(), [-1, -1]);
  // An OP_RETURN output belongs to no scripthash; nor does a script never seen.
  for (const sh of [scripthash(scenario.opReturn), 'ab'.repeat(32)]) {
    assert.deepEqual(await client.request('blockchain.scripthash.get_history', [sh]), []);
    assert.deepEqual(await client.request('blockchain.scripthash.get_balance', [sh]), { confirmed: 0, unconfirmed: 0 });
    assert.equal(await client.request('blockchain.scripthash.subscribe', [sh]), null);
  }
  // By name, as JSON-RPC 2.0 allows with the documented names.
  const first = scripthash(scenario.scripts[0]!);
  assert.deepEqual(await client.request('blockchain.scripthash.get_balance', { scripthash: first }), await client.request('blockchain.scripthash.get_balance', [first]));
  if (version === '1.6') {
    assert.equal(await client.request('blockchain.scripthash.unsubscribe', [first]), true);
    assert.equal(await client.request('blockchain.scripthash.unsubscribe', [first]), false);
  } else {
    await rejectsWith(client.request('blockchain.scripthash.unsubscribe', [first]), -32601, /unknown method/);
  }
}

export async function checkHeaders(client: ElectrumTestClient, node: RegtestNode, version: '1.4' | '1.6'): Promise<void> {
  const tip = await node.rpc.call<number>('getblockcount');
  const hashes: string[] = [];
  for (let h = 0; h <= tip; h++) hashes.push(await node.rpc.call<string>('getblockhash', [h]));
  const header = (h: number): Promise<string> => node.rpc.call<string>('getblockheader', [hashes[h], false]);
  assert.deepEqual(await client.request('blockchain.headers.subscribe'), { height: tip, hex: await header(tip) });
  for (const h of [0, 1, tip]) assert.equal(await client.request('blockchain.block.header', [h]), await header(h));
  const chunk = await client.request<{ count: number; max: number; hex?: string; headers?: string[] }>('blockchain.block.headers', [tip - 3, 10]);
  const expected = await Promise.all([tip - 3, tip - 2, tip - 1, tip].map(header));
  assert.equal(chunk.count, 4, 'fewer at the tip');
  assert.equal(chunk.max, 2016);
  if (version === '1.6') assert.deepEqual(chunk.headers, expected);
  else assert.equal(chunk.hex, expected.join(''));
  // Checkpoint proofs: the branch of a header's hash folds to the root over every block hash up to cp_height.
  for (const [h, cp] of [[5, tip], [tip, tip], [0, 9]] as const) {
    const proof = await client.request<{ header: string; branch: string[]; root: string }>('blockchain.block.header', [h, cp]);
    assert.equal(proof.header, await header(h));
    assert.equal(proof.root, naiveRoot(hashes.slice(0, cp + 1)), `root to ${cp}`);
    assert.equal(foldBranch(hashes[h]!, proof.branch, h), proof.root, `branch of ${h} to ${cp}`);
  }
  const withProof = await client.request<{ root: string; branch: string[]; count: number }>('blockchain.block.headers', [2, 3, tip]);
  assert.equal(foldBranch(hashes[4]!, withProof.branch, 4), withProof.root, 'the proof is of the last header');
  await rejectsWith(client.request('blockchain.block.header', [tip + 1]), 1);
  await rejectsWith(client.request('blockchain.block.header', [3, tip + 5]), 1, /cp_height/);
  await rejectsWith(client.request('blockchain.block.header', [-1]), 1);
}

export async function checkTransactions(client: ElectrumTestClient, node: RegtestNode, scenario: ElectrumScenario): Promise<void> {
  const { txid, height } = scenario.confirmed;
  const hash = await node.rpc.call<string>('getblockhash', [height]);
  const block = await node.rpc.call<{ tx: string[]; merkleroot: string }>('getblock', [hash, 1]);
  assert.equal(await client.request('blockchain.transaction.get', [txid]), await node.rpc.call('getrawtransaction', [txid, false]));
  const verbose = await client.request<{ txid: string; hex: string; blockhash: string }>('blockchain.transaction.get', [txid, true]);
  assert.deepEqual([verbose.txid, verbose.hex, verbose.blockhash], [txid, await node.rpc.call('getrawtransaction', [txid, false]), hash]);
  const child = scenario.mempoolChain[1]!;
  assert.equal(await client.request('blockchain.transaction.get', [child]), await node.rpc.call('getrawtransaction', [child, false]), 'a mempool tx');
  const merkle = await client.request<{ block_height: number; pos: number; merkle: string[] }>('blockchain.transaction.get_merkle', [txid, height]);
  assert.equal(merkle.block_height, height);
  assert.equal(merkle.pos, block.tx.indexOf(txid));
  assert.equal(foldBranch(txid, merkle.merkle, merkle.pos), block.merkleroot, 'the branch folds to the block header\'s merkle root');
  assert.equal(await client.request('blockchain.transaction.id_from_pos', [height, merkle.pos]), txid);
  assert.deepEqual(await client.request('blockchain.transaction.id_from_pos', [height, merkle.pos, true]), { tx_hash: txid, merkle: merkle.merkle });
  await rejectsWith(client.request('blockchain.transaction.get_merkle', [txid, height - 1]), 1);
  await rejectsWith(client.request('blockchain.transaction.id_from_pos', [height, 1000]), 1);
  await rejectsWith(client.request('blockchain.transaction.get', ['cd'.repeat(32)]), 1);
  await rejectsWith(client.request('blockchain.transaction.get', ['xyz']), 1);
}

export async function checkFees(client: ElectrumTestClient, node: RegtestNode, version: '1.4' | '1.6'): Promise<void> {
  const smart = await node.rpc.call<{ feerate?: number }>('estimatesmartfee', [2]);
  assert.equal(await client.request('blockchain.estimatefee', [2]), smart.feerate ?? -1);
  const info = await node.rpc.call<Record<string, number>>('getmempoolinfo');
  if (version === '1.6') {
    // The fee floors the node has (Litecoin Core 0.21 has no incrementalrelayfee), and what Fulcrum passes on too.
    const floors = Object.fromEntries(['mempoolminfee', 'minrelaytxfee', 'incrementalrelayfee', 'unbroadcastcount', 'fullrbf'].filter((k) => k in info).map((k) => [k, info[k]]));
    assert.deepEqual(await client.request('mempool.get_info'), floors);
    await rejectsWith(client.request('blockchain.relayfee'), -32601);
    assert.equal(await client.request('blockchain.estimatefee', [2, 'economical']), (await node.rpc.call<{ feerate?: number }>('estimatesmartfee', [2, 'ECONOMICAL'])).feerate ?? -1);
  } else {
    assert.equal(await client.request('blockchain.relayfee'), (await node.rpc.call<{ relayfee: number }>('getnetworkinfo')).relayfee);
    await rejectsWith(client.request('mempool.get_info'), -32601);
  }
  // The node's mempool binned as ElectrumX and Fulcrum bin it (a mempool this small fills no bin of 30,000 vbytes).
  const entries = await node.rpc.call<Record<string, { vsize: number; fees: { base: string } }>>('getrawmempool', [true], { exactDecimals: true });
  const expected = compactFeeHistogram(Object.values(entries).map((e) => ({ fee: parseCoins(String(e.fees.base)), vsize: e.vsize })));
  assert.deepEqual(await client.request('mempool.get_fee_histogram'), expected);
}
