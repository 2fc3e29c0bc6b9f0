import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not reach unless `[webhooks] allow_private_targets` (docs/webhooks.md, Safety): loopback,
 * private, carrier-grade NAT, link-local (cloud metadata at 169.254.169.254 included), unspecified, multicast and
 * reserved ranges, IPv4 and IPv6. An IPv6 address that carries an IPv4 one is judged by the IPv4 inside: mapped
 * (::ffff:0:0/96), SIIT-translated (::ffff:0:0:0/96, RFC 2765), NAT64 (64:ff9b::/96, RFC 6052) and 6to4 (2002::/16,
 * RFC 3056). The deprecated IPv4-compatible range (::/96) and the local-use NAT64 prefix (64:ff9b:1::/48, RFC 8215,
 * which a site maps to any IPv4 of its choosing) are refused whole.
 */
const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 96], ['::1', 128], ['64:ff9b:1::', 48], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['2001:db8::', 32], ['100::', 64], ['2001::', 23],
] as const) BLOCKED.addSubnet(net, bits, 'ipv6');

/** The 16 bytes of an IPv6 address (a zone `%eth0` dropped, a dotted IPv4 tail read), or null when it is none. */
export function ipv6Bytes(address: string): Uint8Array | null {
  const text = address.replace(/%.*$/, '');
  if (isIP(text) !== 6) return null;
  const bytes = new Uint8Array(16);
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  // The dotted tail as two hex groups, so the rest is plain groups.
  const groupsText = dotted ? `${text.slice(0, dotted.index)}${((+dotted[1]! << 8) | +dotted[2]!).toString(16)}:${((+dotted[3]! << 8) | +dotted[4]!).toString(16)}` : text;
  const [head = '', tail] = groupsText.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  groups.forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[2 * i] = value >> 8;
    bytes[2 * i + 1] = value & 255;
  });
  return bytes;
}

const zero = (bytes: Uint8Array, from: number, to: number): boolean => bytes.subarray(from, to).every((b) => b === 0);
const dottedAt = (bytes: Uint8Array, at: number): string => Array.from(bytes.subarray(at, at + 4)).join('.');

/** The IPv4 address an IPv6 address carries by one of the standard translations, else null. */
function embeddedIpv4(bytes: Uint8Array): string | null {
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (SIIT)
  if (zero(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return dottedAt(bytes, 12);
  if (zero(bytes, 0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zero(bytes, 10, 12)) return dottedAt(bytes, 12);
  // 64:ff9b::a.b.c.d (the well-known NAT64 prefix)
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zero(bytes, 4, 12)) return dottedAt(bytes, 12);
  // 2002:AABB:CCDD::/48 (6to4: the relay's IPv4 in the prefix)
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return dottedAt(bytes, 2);
  return null;
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  const bytes = ipv6Bytes(address);
  if (!bytes) return true;
  const v4 = embeddedIpv4(bytes);
  if (v4 !== null && BLOCKED.check(v4, 'ipv4')) return true;
  return BLOCKED.check(address.replace(/%.*$/, ''), 'ipv6');
}
