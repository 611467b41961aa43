import { BlockList, isIP } from 'node:net';

/**
 * Where a hook may send (decision 0041): the SSRF rule. A target that is (or resolves to) a
 * loopback, private, link-local, CGNAT, unique-local, multicast or otherwise special address is
 * refused unless the installation allows private targets; a cloud metadata address is refused
 * always. The save-time check reads literal addresses (and localhost names) in the URL; the
 * dispatcher applies the same classification to the addresses it resolves before connecting.
 */

export type AddressClass = 'public' | 'loopback' | 'private' | 'linkLocal' | 'cgnat' | 'uniqueLocal' | 'special' | 'metadata';

/** Cloud instance metadata: AWS/GCP/Azure/OpenStack, AWS over IPv6, Alibaba Cloud. */
const METADATA = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

const list = (subnets: [string, number, 'ipv4' | 'ipv6'][]) => {
  const b = new BlockList();
  for (const [net, prefix, type] of subnets) b.addSubnet(net, prefix, type);
  return b;
};

/** fd00:ec2::254 in any spelling. */
const METADATA_V6 = list([['fd00:ec2::254', 128, 'ipv6']]);

const CLASSES: [Exclude<AddressClass, 'public' | 'metadata'>, BlockList][] = [
  ['loopback', list([['127.0.0.0', 8, 'ipv4'], ['0.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6'], ['::', 128, 'ipv6']])],
  ['private', list([['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4']])],
  ['linkLocal', list([['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']])],
  ['cgnat', list([['100.64.0.0', 10, 'ipv4']])],
  ['uniqueLocal', list([['fc00::', 7, 'ipv6']])],
  [
    'special',
    list([
      // IETF protocol assignments, documentation, benchmarking, multicast, reserved, broadcast.
      ['192.0.0.0', 24, 'ipv4'], ['192.0.2.0', 24, 'ipv4'], ['198.18.0.0', 15, 'ipv4'], ['198.51.100.0', 24, 'ipv4'], ['203.0.113.0', 24, 'ipv4'],
      ['224.0.0.0', 4, 'ipv4'], ['240.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'], ['2001:db8::', 32, 'ipv6'], ['100::', 64, 'ipv6'], ['fec0::', 10, 'ipv6'],
    ]),
  ],
];

/** The IPv4 address an IPv6 address carries (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96), if any. */
function embeddedIpv4(ip: string): string | null {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(ip);
  if (!m) return null;
  if (m[1]) return m[1];
  const hi = parseInt(m[2]!, 16);
  const lo = parseInt(m[3]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** What kind of address an IP literal is (IPv6 without brackets). */
export function classifyAddress(ip: string): AddressClass {
  const lower = ip.toLowerCase();
  const v4 = isIP(lower) === 6 ? embeddedIpv4(lower) : null;
  if (v4) return classifyAddress(v4);
  const type = isIP(lower) === 4 ? 'ipv4' : 'ipv6';
  if (METADATA.has(lower) || (type === 'ipv6' && METADATA_V6.check(lower, 'ipv6'))) return 'metadata';
  for (const [cls, b] of CLASSES) if (b.check(lower, type)) return cls;
  return 'public';
}

/** Whether a hook may connect to this address under the installation's setting. */
export function addressAllowed(ip: string, allowPrivateTargets: boolean): boolean {
  const cls = classifyAddress(ip);
  if (cls === 'public') return true;
  if (cls === 'metadata') return false;
  return allowPrivateTargets;
}

/** A URL's host as an IP literal (brackets removed), or null for a name. */
export function literalHost(url: URL): string | null {
  const h = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(h) ? h : null;
}

/** Names that always mean this machine. */
const isLocalName = (host: string) => {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === 'localhost.localdomain';
};

/**
 * The save-time rule: a URL whose host is a literal address (or a localhost name) that the
 * setting does not allow is refused. Names are checked at send time, after resolving.
 */
export function urlTargetAllowed(url: string, allowPrivateTargets: boolean): boolean {
  const u = new URL(url);
  const ip = literalHost(u);
  if (ip) return addressAllowed(ip, allowPrivateTargets);
  return allowPrivateTargets || !isLocalName(u.hostname);
}
