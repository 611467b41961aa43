import { describe, expect, it } from 'vitest';
import { addressAllowed, classifyAddress, urlTargetAllowed } from './hook.address.ts';

describe('hook target addresses (SSRF rule)', () => {
  it('classifies loopback, private, link-local, CGNAT, ULA, metadata and public addresses, IPv6 spellings included', () => {
    const cases: [string, string][] = [
      ['127.0.0.1', 'loopback'], ['127.8.9.10', 'loopback'], ['0.0.0.0', 'loopback'], ['::1', 'loopback'], ['0:0:0:0:0:0:0:1', 'loopback'],
      ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.1.1', 'private'],
      ['169.254.1.1', 'linkLocal'], ['fe80::1', 'linkLocal'], ['100.64.0.1', 'cgnat'], ['fd12:3456::1', 'uniqueLocal'],
      ['169.254.169.254', 'metadata'], ['fd00:ec2::254', 'metadata'], ['fd00:ec2:0:0:0:0:0:254', 'metadata'], ['100.100.100.200', 'metadata'],
      ['::ffff:127.0.0.1', 'loopback'], ['::ffff:7f00:1', 'loopback'], ['::ffff:169.254.169.254', 'metadata'], ['64:ff9b::a9fe:a9fe', 'metadata'],
      ['224.0.0.1', 'special'], ['ff02::1', 'special'],
      ['8.8.8.8', 'public'], ['172.32.0.1', 'public'], ['2606:4700::1111', 'public'],
    ];
    for (const [ip, cls] of cases) expect(classifyAddress(ip), ip).toBe(cls);
  });

  it('allows private targets only with the setting, and metadata never', () => {
    expect(addressAllowed('10.0.0.1', false)).toBe(false);
    expect(addressAllowed('10.0.0.1', true)).toBe(true);
    expect(addressAllowed('169.254.169.254', true)).toBe(false);
    expect(addressAllowed('93.184.216.34', false)).toBe(true);
  });

  it('reads literal hosts in every URL spelling the WHATWG parser accepts (decimal, hex, bracketed IPv6) and localhost names', () => {
    for (const url of ['http://127.0.0.1:8628/x', 'http://2130706433/', 'http://0x7f.1/', 'http://[::1]/', 'http://localhost/', 'http://api.localhost./', 'http://169.254.169.254/latest/meta-data'])
      expect(urlTargetAllowed(url, false), url).toBe(false);
    expect(urlTargetAllowed('http://127.0.0.1:8628/x', true)).toBe(true);
    expect(urlTargetAllowed('http://[fd00:ec2::254]/', true)).toBe(false);
    expect(urlTargetAllowed('https://hooks.example.com/ess', false)).toBe(true);
  });
});
