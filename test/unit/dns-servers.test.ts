import { describe, expect, it } from 'vitest';
import { DnsServersError, parseDnsServers } from '#lib/dns/servers.ts';

describe('DNS_RESOLVER setting', () => {
  it.each([
    ['127.0.0.1:5353', ['127.0.0.1:5353']],
    ['127.0.0.1', ['127.0.0.1:53']],
    ['[::1]:5353', ['[::1]:5353']],
    ['[::1]', ['[::1]:53']],
    ['::1', ['[::1]:53']],
    ['2001:db8::53', ['[2001:db8::53]:53']],
    [' 10.0.0.2:53 , [fd00::1]:5300 ', ['10.0.0.2:53', '[fd00::1]:5300']],
    ['1.1.1.1,8.8.8.8:53,[::1]', ['1.1.1.1:53', '8.8.8.8:53', '[::1]:53']],
    ['127.0.0.1:65535', ['127.0.0.1:65535']],
  ])('%s → %j', (value, servers) => {
    // Act / Assess
    expect(parseDnsServers(value)).toEqual(servers);
  });

  it.each([
    ['an empty value', '', 'has an empty entry'],
    ['an empty entry', '127.0.0.1,,[::1]', 'has an empty entry'],
    ['a trailing comma', '127.0.0.1:53,', 'has an empty entry'],
    ['a host name', 'dns.example:53', '"dns.example:53" is not an IP address'],
    ['localhost', 'localhost', '"localhost" is not an IP address'],
    ['a URL', 'udp://127.0.0.1:53', '"udp://127.0.0.1:53" is not an IP address'],
    ['an incomplete IPv4 address', '127.0.0:53', '"127.0.0:53" is not an IP address'],
    ['port 0', '127.0.0.1:0', '"127.0.0.1:0" has no valid port'],
    ['a port above 65535', '127.0.0.1:65536', '"127.0.0.1:65536" has no valid port'],
    ['an empty port', '127.0.0.1:', '"127.0.0.1:" has no valid port'],
    ['a named port', '127.0.0.1:dns', '"127.0.0.1:dns" has no valid port'],
    ['a negative port', '127.0.0.1:-53', '"127.0.0.1:-53" has no valid port'],
    ['an IPv4 address in brackets', '[127.0.0.1]:53', '"[127.0.0.1]:53" is not an IPv6 address in brackets'],
    ['an unclosed bracket', '[::1:53', '"[::1:53" is not an IP address'],
    ['text after the brackets', '[::1]x53', '"[::1]x53" is not an IP address'],
  ])('refuses %s with a message naming the entry', (_, value, detail) => {
    // Act
    const parse = () => parseDnsServers(value);
    // Assess
    expect(parse).toThrow(DnsServersError);
    expect(parse).toThrow(/^must be a comma-separated list of IP:port/);
    expect(parse).toThrow(detail);
  });
});
