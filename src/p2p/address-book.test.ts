import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AddressBook, networkGroup, parsePeerAddress } from './address-book.js';

describe('address book', () => {
  it('parses host:port, [v6]:port and bare hosts with the default port', () => {
    assert.deepEqual(parsePeerAddress('10.1.2.3:9333', 1), { host: '10.1.2.3', port: 9333 });
    assert.deepEqual(parsePeerAddress('[2001:db8::1]:8333', 1), { host: '2001:db8::1', port: 8333 });
    assert.deepEqual(parsePeerAddress('Node.Example.org', 22556), { host: 'node.example.org', port: 22556 });
    for (const bad of ['', 'a b:1', '1.2.3.4:0', '1.2.3.4:70000', 'x:y', '[::1]x']) assert.throws(() => parsePeerAddress(bad, 1), RangeError, bad);
  });

  it('groups IPv4 by /16, IPv6 by /32 (v4-mapped as v4), host names by name', () => {
    assert.equal(networkGroup('10.1.2.3'), '10.1');
    assert.equal(networkGroup('10.1.200.9'), '10.1');
    assert.notEqual(networkGroup('10.2.0.1'), networkGroup('10.1.0.1'));
    assert.equal(networkGroup('2001:db8:1::5'), '2001:db8');
    assert.equal(networkGroup('::ffff:10.1.9.9'), '10.1');
    assert.equal(networkGroup('node.example.org'), 'node.example.org');
  });

  it('offers one discovered address per /16, skips configured duplicates, and backs off failures exponentially', () => {
    const book = new AddressBook(['10.0.0.1:1', '10.0.0.1:2'], 9333);
    assert.equal(book.configuredCount, 2, 'configured peers may share a host');
    assert.equal(book.addDiscovered(['10.0.0.1:1', '10.5.0.1', '10.5.0.2', 'garbage!', '10.6.0.1:7', '10.5.0.1']), 3);
    const busy = (): boolean => false;
    const first = book.nextDiscovered(0, busy, new Set())!;
    const second = book.nextDiscovered(0, busy, new Set([first.group]))!;
    assert.notEqual(first.group, second.group);
    assert.equal(book.nextDiscovered(0, busy, new Set([first.group, second.group])), null, 'no third /16');
    book.failed(first, 0);
    const afterOne = first.notBeforeMs;
    book.failed(first, 0);
    assert.ok(afterOne >= 24_000 && afterOne <= 36_000, String(afterOne));
    assert.ok(first.notBeforeMs >= 48_000, String(first.notBeforeMs));
    book.succeeded(first);
    assert.equal(first.failures, 0);
    book.misbehaved(second, 0);
    assert.equal(second.notBeforeMs, 86_400_000, 'a misbehaving stranger waits a day');
    const [configured] = book.dueConfigured(0, busy);
    book.misbehaved(configured!, 0);
    assert.equal(configured!.notBeforeMs, 60_000, 'a misbehaving configured peer is retried after a minute');
    assert.equal(book.dueConfigured(0, busy).length, 1);
  });
});
