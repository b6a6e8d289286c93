import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** IPv4 ranges that are not global unicast (IANA special-purpose registry, RFC 6890 and successors). */
const NON_PUBLIC_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network", incl. the unspecified 0.0.0.0
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation TEST-NET-2
  ['203.0.113.0', 24], // documentation TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast 255.255.255.255
];

/**
 * IPv6 space that is refused outright. Global unicast is 2000::/3; everything outside it (unspecified,
 * loopback, IPv4-compatible ::/96, SIIT ::ffff:0:0:0/96, discard, local-use NAT64 64:ff9b:1::/48, ULA
 * fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8) is refused by that rule.
 * IPv4-mapped ::ffff:0:0/96 and well-known NAT64 64:ff9b::/96 are judged by the IPv4 they carry before.
 */
const NON_PUBLIC_V6_IN_GLOBAL: [string, number][] = [
  ['2001::', 23], // IETF protocol assignments: Teredo 2001::/32 (embeds an IPv4), benchmarking, ORCHID…
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 that a relay would reach
  ['3fff::', 20], // documentation (RFC 9637)
];

const v4Blocked = new BlockList();
for (const [net, prefix] of NON_PUBLIC_V4) v4Blocked.addSubnet(net, prefix, 'ipv4');
// IPv6 prefixes are matched on the parsed words: node's BlockList judges some IPv6 forms that carry an
// IPv4 (`::a.b.c.d`) as that IPv4, which is the question this module answers itself.
const v6Blocked = NON_PUBLIC_V6_IN_GLOBAL.map(([net, prefix]): [ipaddr.IPv6, number] => [
  ipaddr.IPv6.parse(net),
  prefix,
]);
const v6Global: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('2000::'), 3];

const v4FromBytes = (bytes: number[]) => bytes.join('.');

/**
 * Parses IPv6 through the WHATWG URL parser first, which rewrites a dotted IPv4 tail into hex words:
 * ipaddr.js alone reads `::a.b.c.d` (IPv4-compatible) as `::ffff:a.b.c.d` (IPv4-mapped). A zone id
 * (`%eth0`) only names an interface, so it is dropped.
 */
function parseV6(address: string): ipaddr.IPv6 | undefined {
  try {
    const hex = new URL(`http://[${address.split('%')[0]}]/`).hostname.slice(1, -1);
    return ipaddr.IPv6.parse(hex);
  } catch {
    return undefined;
  }
}

function isPublicV4(address: string): boolean {
  return !v4Blocked.check(address, 'ipv4');
}

/**
 * True only for a global unicast address a fetch may connect to. IPv6 forms that carry an IPv4 address:
 * IPv4-mapped (`::ffff:a.b.c.d`, any spelling) and well-known NAT64 (`64:ff9b::a.b.c.d`) reach that IPv4,
 * so they are judged as it; ISATAP interface ids (`…:0:5efe:a.b.c.d`, `…:200:5efe:…`) must carry a public
 * IPv4 too; IPv4-compatible (`::a.b.c.d`), SIIT, local-use NAT64, 6to4 and Teredo are refused outright
 * (deprecated or tunnel forms no public image host needs).
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isPublicV4(address);
  const v6 = family === 6 ? parseV6(address) : undefined;
  if (!v6) return false;
  const bytes = v6.toByteArray();
  const words = v6.parts;
  const embedded = v4FromBytes(bytes.slice(12));
  const prefix96Is = (...head: number[]) => head.every((w, i) => words[i] === w);
  if (prefix96Is(0, 0, 0, 0, 0, 0xffff)) return isPublicV4(embedded);
  if (prefix96Is(0x64, 0xff9b, 0, 0, 0, 0)) return isPublicV4(embedded);
  if (!v6.match(v6Global) || v6Blocked.some((range) => v6.match(range))) return false;
  // ISATAP (RFC 5214): interface id 0000:5efe or 0200:5efe (with the u/g bits in any state) + IPv4.
  if (((words[4] as number) & 0xfcff) === 0 && words[5] === 0x5efe) return isPublicV4(embedded);
  return true;
}
