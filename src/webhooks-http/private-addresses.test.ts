import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPrivateAddress } from './private-addresses.js';

describe('isPrivateAddress', () => {
  it('refuses loopback, private, link-local, metadata and reserved ranges, IPv4 and IPv6 and IPv4 inside IPv6', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1',
      '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '64:ff9b::10.0.0.1', 'not-an-ip']) {
      assert.equal(isPrivateAddress(a), true, a);
    }
  });
  it('allows public addresses', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) assert.equal(isPrivateAddress(a), false, a);
  });
});
