import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorMessage, jsonOf, parseIncoming, resultMessage } from './json-rpc.js';

describe('Electrum JSON-RPC framing', () => {
  it('parses requests, notifications and batches; refuses garbage with the JSON-RPC codes', () => {
    assert.deepEqual(parseIncoming('{"jsonrpc":"2.0","id":7,"method":"server.ping","params":[]}'),
      { batch: false, item: { id: 7, method: 'server.ping', params: [], notification: false } });
    assert.deepEqual(parseIncoming('{"method":"server.ping"}'), { batch: false, item: { id: null, method: 'server.ping', params: undefined, notification: true } });
    assert.equal((parseIncoming('{"id":1,') as { item: { code: number } }).item.code, -32700);
    assert.equal((parseIncoming('42') as { item: { code: number } }).item.code, -32600);
    assert.equal((parseIncoming('[]') as { item: { code: number } }).item.code, -32600);
    assert.deepEqual((parseIncoming('{"id":2,"method":"x","params":"a"}') as { item: unknown }).item, { id: 2, code: -32602, message: 'Invalid params: expected an array or an object' });
    assert.deepEqual((parseIncoming('{"id":{"a":1},"method":"x"}') as { item: { code: number; id: unknown } }).item.code, -32600);
    const batch = parseIncoming('[{"id":1,"method":"a"},5,{"id":"x","method":"b","params":{"k":1}}]');
    assert.equal(batch.batch, true);
    assert.deepEqual(batch.batch && batch.items.map((i) => ('method' in i ? i.method : i.code)), ['a', -32600, 'b']);
  });

  it('writes amounts exactly, beyond 2^53 too', () => {
    assert.equal(jsonOf({ confirmed: 5n, unconfirmed: -3n }), '{"confirmed":5,"unconfirmed":-3}');
    assert.equal(jsonOf([{ value: 9_007_199_254_740_993n }]), '[{"value":9007199254740993}]');
    assert.equal(resultMessage(3, 'null'), '{"jsonrpc":"2.0","result":null,"id":3}');
    assert.equal(errorMessage('a', -32601, 'unknown method "x"'), '{"jsonrpc":"2.0","error":{"code":-32601,"message":"unknown method \\"x\\""},"id":"a"}');
  });
});
