import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { historyItems, statusOf } from './script-status.js';

describe('Electrum script status', () => {
  it('is the spec example: confirmed by height and position, mempool height 0 before -1, then by txid', () => {
    // protocol-basics.rst, "Status Example" (bcrt1qn7d2x7272lznt5hhk9s07q3cqnrqljnwladrd3).
    const items = historyItems({
      confirmed: [
        { txid: 'a6c9c361bd0bc536d6a22648efbf8f9b200e425ef6c3a7a9669dc444c532a347', height: 2472 },
        { txid: '9c42f84b2fcdaff676ba25d9d4941741cc0d1a01cce0c23fdc4c0b2afa38431c', height: 2473 },
        { txid: '770f2d4371b3fabb902dd9a103e2dd005fcd3971181078fca4a2a1d6ff127b30', height: 2473 },
      ],
      mempool: [
        { txid: 'bb4c8ab438c13b89ca80d1d5bee25b0b6b7f55673f4d801998ba97db161d9e85', fee: 200n, unconfirmedParent: true },
        { txid: 'e02a1dadfa83b996b24175df807b271ea5d02937ef5b35c195fac1e1bdc3198f', fee: 300n, unconfirmedParent: false },
        { txid: '80b19848aed792565ab7c5a79b7c2a00fbf985741579396ebe0ab6098e607311', fee: 200n, unconfirmedParent: false },
      ],
    });
    assert.deepEqual(items.slice(3).map((i) => [i.tx_hash.slice(0, 2), i.height, i.fee]), [['80', 0, 200n], ['e0', 0, 300n], ['bb', -1, 200n]]);
    assert.equal(statusOf(items), '78e96c6562cafa71c115503b9411fdfdc595a45031e2ab76ff75162fe1b0590d');
  });

  it('is null without history', () => {
    assert.equal(statusOf(historyItems({ confirmed: [], mempool: [] })), null);
  });
});
