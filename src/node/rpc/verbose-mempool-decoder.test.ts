import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { withLoopTurns } from '../../../test/helpers/loop-turns.js';
import { parseJsonExactDecimals } from './exact-json.js';
import { parseMempoolEntries } from './node-replies.js';
import { ENTRIES_PER_PIECE, VerboseMempoolDecoder } from './verbose-mempool-decoder.js';

const txid = (): string => randomBytes(32).toString('hex');

/** Core 27's verbose entries (bitcoind's fields), amounts with 8 decimals; some with parents. */
function verboseReply(count: number): Buffer {
  const txids = Array.from({ length: count }, txid);
  const entries = txids.map((t, i) => {
    const fee = `0.${String(1000 + i).padStart(8, '0')}`;
    return `"${t}":{"vsize":${141 + (i % 90)},"weight":${561 + (i % 360)},"time":${1_700_000_000 + i},"height":${800_000 + (i % 3)},` +
      `"descendantcount":1,"descendantsize":200,"ancestorcount":${1 + (i % 2)},"ancestorsize":300,"wtxid":"${txid()}",` +
      `"fees":{"base":${fee},"modified":${i % 7 === 0 ? '21000000.00000001' : fee},"ancestor":${fee},"descendant":${fee}},` +
      `"depends":${JSON.stringify(i % 5 === 0 && i > 0 ? [txids[i - 1]] : [])},"spentby":[],"bip125-replaceable":${i % 2 === 0},"unbroadcast":false}`;
  });
  return Buffer.from(`{"result":{${entries.join(',')}},"error":null,"id":3}`);
}

describe('VerboseMempoolDecoder', () => {
  const decoder = new VerboseMempoolDecoder();
  after(() => decoder.close());

  it('decodes on its worker what the calling thread decodes (exact amounts, order, every field)', async () => {
    for (const count of [0, 1, 2_500]) {
      const body = verboseReply(count);
      const here = parseMempoolEntries((parseJsonExactDecimals(body.toString('utf8')) as { result: unknown }).result);
      const there = await decoder.decode(body);
      assert.deepEqual(there, here);
      assert.deepEqual([...there!.keys()], [...here.keys()]);
      // The caller's bytes are left as they were (a copy went to the worker).
      assert.equal(body.length > 0 && body.toString('latin1', 0, 11), '{"result":{');
    }
  });

  it('hands back in pieces, the event loop turning while they arrive', async () => {
    const body = verboseReply(5 * ENTRIES_PER_PIECE);
    const { result: entries, turns } = await withLoopTurns(() => decoder.decode(body));
    assert.equal(entries?.size, 5 * ENTRIES_PER_PIECE);
    assert.ok(turns >= 5, `the event loop turned ${turns} times`);
  });

  it('gives null for a reply that is not a verbose mempool (the caller decodes it, with its errors)', async () => {
    assert.equal(await decoder.decode(Buffer.from('{"result":null,"error":{"code":-28,"message":"Loading"},"id":1}')), null);
    assert.equal(await decoder.decode(Buffer.from('{"result":["ab"],"error":null,"id":1}')), null);
    assert.equal(await decoder.decode(Buffer.from('not json')), null);
    assert.equal(await decoder.decode(Buffer.from('{"result":{"ab":{"vsize":"x"}},"error":null,"id":1}')), null);
  });
});
