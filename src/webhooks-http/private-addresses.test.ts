import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ipv6Bytes, isPrivateAddress } from './private-addresses.js';

describe('isPrivateAddress', () => {
  it('refuses loopback, private, link-local, metadata and reserved ranges, IPv4 and IPv6 and IPv4 inside IPv6', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1',
      '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '64:ff9b::10.0.0.1', 'not-an-ip']) {
      assert.equal(isPrivateAddress(a), true, a);
    }
  });
  it('refuses IPv4 carried in IPv6 however written: compatible (::/96), SIIT, NAT64 (well-known and local-use), 6to4', () => {
    for (const a of [
      '::127.0.0.1', '::7f00:1', '::8.8.8.8', '::ffff:0:127.0.0.1', '::ffff:0:7f00:1', '::ffff:0:a9fe:a9fe', '0:0:0:0:0:ffff:7f00:1',
      '64:ff9b::7f00:1', '64:ff9b:1::a00:1', '64:ff9b:1::8.8.8.8', '2002:7f00:1::', '2002:a00:1::1', '2002:a9fe:a9fe::', 'fe80::1%eth0',
    ]) assert.equal(isPrivateAddress(a), true, a);
  });
  it('allows public addresses, and public IPv4 carried in IPv6', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '::ffff:0:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1']) {
      assert.equal(isPrivateAddress(a), false, a);
    }
  });
  it('reads IPv6 text into bytes', () => {
    assert.deepEqual([...ipv6Bytes('::ffff:1.2.3.4')!], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4]);
    assert.deepEqual([...ipv6Bytes('2002:a00:1::5')!], [0x20, 2, 0x0a, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]);
    assert.equal(ipv6Bytes('1.2.3.4'), null);
  });
});
