import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { classifyAddress } from './hook.address.ts';

/**
 * The SSRF guard of hook targets at send time (issue 21, item 4; the save-time check of literal
 * addresses is hook.address.ts, whose classification this uses). After DNS (guardedLookup):
 * the name is resolved first, every address it resolves to is judged, and the connection goes to
 * the judged address — the request keeps the name in its Host header and TLS SNI, so a name that
 * answers differently the second time (DNS rebinding) cannot slip a private address in.
 *
 * Refused: loopback, private (RFC 1918, IPv6 ULA), link-local, CGNAT (100.64/10), unspecified,
 * multicast, reserved and documentation ranges, IPv4-mapped and NAT64 forms of them — unless the
 * administrator allows private targets. Cloud metadata addresses (169.254.169.254, fd00:ec2::254,
 * Alibaba Cloud's 100.100.100.200) are refused always: no setting opens them.
 */

export type AddressVerdict = 'public' | 'private' | 'metadata';

/** Whether an IP address is public, private (loopback, RFC 1918, link-local, CGNAT, ULA, special) or a cloud metadata address: the save-time rule's classification (hook.address.ts). */
export function judgeAddress(address: string): AddressVerdict {
  if (isIP(address) === 0) return 'private'; // Not an address: nothing to connect to safely.
  const cls = classifyAddress(address);
  return cls === 'public' || cls === 'metadata' ? cls : 'private';
}

export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefused';
  }
}

/** Why an address may not be reached, or null when it may. */
export function refusal(address: string, allowPrivate: boolean): string | null {
  const v = judgeAddress(address);
  if (v === 'metadata') return `目标地址 ${address} 是云平台元数据地址，不允许访问`;
  if (v === 'private' && !allowPrivate) return `目标地址 ${address} 是本机、内网或链路本地地址，不允许访问（管理员可允许内网目标）`;
  return null;
}

/** The URL's host without IPv6 brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request / tls.connect: resolves the name, refuses the connection when any
 * of its addresses may not be reached, else connects to the first one. The socket then connects
 * to exactly the address judged here.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true, family: 0 }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses;
      if (list.length === 0) return callback(Object.assign(new Error(`${hostname} 没有解析到地址`), { code: 'ENOTFOUND' }), '');
      for (const a of list) {
        const why = refusal(a.address, allowPrivate);
        if (why) return callback(Object.assign(new TargetRefused(`${hostname} → ${why}`), { code: 'ESSRF' }), '');
      }
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
