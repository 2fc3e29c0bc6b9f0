/**
 * Litecoin MWEB on a real litecoind -regtest: activation at height 432, peg-ins, HogEx and
 * peg-outs are indexed as the visible chain data they are; MWEB-internal transfers stay
 * confidential (no invented amounts or addresses). Both store engines.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressToScript, classifyScript } from '../../src/chains/addressing.js';
import { getNetworkParams } from '../../src/chains/networks.js';
import { parseTransaction } from '../../src/chains/parsing.js';
import { useIndexedRegtest, type IndexedEngine } from '../helpers/indexer-harness.js';
import { mwebActivate } from '../helpers/mweb-activate.js';
import { startLitecoind, type RegtestNode } from '../helpers/regtest-node.js';

const params = getNetworkParams('LTCTEST', 'regtest');
let node: RegtestNode;
let indexed: IndexedEngine[];
const env = useIndexedRegtest(params, () => startLitecoind({ funded: true }), (started) => {
  node = started.node;
  indexed = started.indexed;
});

const check = (label: string): Promise<void> => env().check(label);

describe('Litecoin MWEB indexing', () => {
  it('activation block: the peg-in and the first HogEx are indexed', async () => {
    const { pegInTxid, activationHash } = await mwebActivate(node);
    await check('after activation');
    const block = await node.rpc.call<{ tx: string[]; height: number }>('getblock', [activationHash, 1]);
    assert.equal(block.height, 432);
    const hogexTxid = block.tx[block.tx.length - 1]!;
    for (const e of indexed) {
      const pegIn = await e.store.getTransaction(pegInTxid);
      assert.equal(pegIn?.status, 'confirmed');
      const pegInTx = parseTransaction(pegIn.raw!, { mweb: true });
      const pegOutput = pegInTx.outputs.findIndex((o) => classifyScript(o.script, params.features) === 'witness_mweb_pegin');
      assert.ok(pegOutput >= 0, 'the peg-in pays an OP_9 MWEB peg-in script');
      const hogex = await e.store.getTransaction(hogexTxid);
      assert.equal(hogex?.status, 'confirmed');
      assert.equal(hogex.position, block.tx.length - 1, 'HogEx is the last tx of the block');
      const hogexTx = parseTransaction(hogex.raw!, { mweb: true });
      assert.equal(hogexTx.isHogEx, true);
      assert.equal(classifyScript(hogexTx.outputs[0]!.script, params.features), 'witness_mweb_hogaddr');
      // The HogEx spends the peg-in output: the peg-in's MWEB-bound coins are visibly locked in the HogEx.
      const outputs = await e.store.getOutputs(pegInTxid);
      assert.equal(outputs?.[pegOutput]?.spentBy?.txid, hogexTxid);
      const stored = await e.store.getBlockByHash(activationHash);
      assert.equal(stored?.txCount, block.tx.length);
    }
  });

  it('a peg-out reaches its transparent address through the next HogEx; MWEB-internal transfers invent nothing', async () => {
    const mw = await node.createWallet('mw');
    await node.send(await mw.call<string>('getnewaddress', ['', 'mweb']), '2');
    await node.mine(1);
    await check('funds in the second wallet');
    const pegOutTarget = await node.newAddress('bech32');
    env().watched.push(pegOutTarget);
    await mw.call('sendtoaddress', [pegOutTarget, '0.5']);
    const internal = await mw.call<string>('sendtoaddress', [await mw.call<string>('getnewaddress', ['', 'mweb']), '0.25']);
    await check('peg-out and MWEB-only tx in the mempool');
    for (const e of indexed) {
      const tx = await e.store.getTransaction(internal);
      assert.ok(tx, 'the MWEB-only tx is known by its id');
      const parsed = parseTransaction(tx.raw!, { mweb: true });
      assert.equal(parsed.inputs.length + parsed.outputs.length, 0, 'it has no transparent inputs or outputs');
      assert.equal(tx.prevouts.length, 0);
    }
    const [hash] = await node.mine(1);
    await check('peg-out confirmed');
    const block = await node.rpc.call<{ tx: string[] }>('getblock', [hash, 1]);
    const hogexTxid = block.tx[block.tx.length - 1]!;
    for (const e of indexed) {
      const unspent = await e.store.getUnspent(addressToScript(params, pegOutTarget), { limit: 10, includeMempool: false });
      assert.equal(unspent.length, 1);
      assert.equal(unspent[0]!.txid, hogexTxid, 'the peg-out is paid by the HogEx');
      assert.equal(unspent[0]!.value, 50_000_000n);
    }
  });
});
