import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { TxidSet, txidListOf, txidsOf } from '../../core/domain/txid-set.js';
import { readTxidListReply } from './txid-list-reply.js';

const txid = (): string => randomBytes(32).toString('hex');
const reply = (result: unknown, id = 7): Buffer => Buffer.from(JSON.stringify({ result, error: null, id }));

describe('readTxidListReply', () => {
  it('reads the txids JSON.parse reads, in order, with their keys', () => {
    for (const txids of [[], [txid()], Array.from({ length: 2000 }, txid)]) {
      const body = reply(txids);
      const list = readTxidListReply(body);
      assert.ok(list);
      assert.deepEqual(txidsOf(list), (JSON.parse(body.toString()) as { result: string[] }).result);
      const set = new TxidSet(txids.filter((_, i) => i % 3 === 0));
      for (let i = 0; i < txids.length; i++) assert.equal(set.hasAt(list, i), i % 3 === 0);
    }
  });

  it('commonRun counts the txids two replies share in order from given places, as comparing them one by one does', () => {
    const before = Array.from({ length: 300 }, txid);
    const next = [...before.slice(0, 100), txid(), ...before.slice(100, 250), ...before.slice(251), txid()];
    const a = readTxidListReply(reply(next))!;
    const b = readTxidListReply(reply(before, 99))!;
    const naive = (i: number, j: number): number => {
      let k = 0;
      while (i + k < next.length && j + k < before.length && next[i + k] === before[j + k]) k++;
      return k;
    };
    for (const [i, j] of [[0, 0], [100, 100], [101, 100], [50, 50], [101, 101], [251, 251], [250, 251], [249, 249], [300, 299], [301, 0], [0, 300]] as const) {
      assert.equal(a.commonRun(i, b, j), naive(i, j), `${i} ${j}`);
      assert.equal(a.commonRun(i, txidListOf(before), j), naive(i, j), `strings: ${i} ${j}`);
    }
  });

  it('allows the spaces JSON allows', () => {
    const [a, b] = [txid(), txid()];
    const list = readTxidListReply(Buffer.from(` { "result" : [ "${a}" ,\n"${b}" ] , "error" : null , "id" : 12 }\n`));
    assert.deepEqual(list && txidsOf(list), [a, b]);
  });

  it('gives null for what it does not know, to be decoded as JSON', () => {
    const a = txid();
    for (const body of [
      '{"result":null,"error":{"code":-28,"message":"Loading"},"id":1}',
      `{"error":null,"result":["${a}"],"id":1}`,
      `{"result":["${a}\\u0030"],"error":null,"id":1}`,
      `{"result":["${a}",],"error":null,"id":1}`,
      `{"result":["${a}"],"error":null,"id":1,"more":true}`,
      `{"result":["${a}"`,
      `{"result":["${a}é"],"error":null,"id":1}`,
      `{"result":{"${a}":{}},"error":null,"id":1}`,
      'Work queue depth exceeded',
    ]) assert.equal(readTxidListReply(Buffer.from(body)), null, body);
  });
});
