import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { webhookSchemas } from '#lib/webhooks/api/fields.ts';
import {
  type AddressRefusal,
  addressRefusal,
  checkDestination,
  checkWebhookUrl,
  type Resolve,
  WEBHOOK_URL_MAX_LENGTH,
} from '#lib/webhooks/rules/address.ts';

/**
 * Each refused range by its first and last address, and the public addresses just outside it (null: allowed).
 * Written out by hand from IANA's special-purpose registries, not derived from the module's table.
 */
const IPV4_EDGES: readonly (readonly [string, AddressRefusal | null])[] = [
  // 0.0.0.0/8 "this network"
  ['0.0.0.0', 'reserved'],
  ['0.255.255.255', 'reserved'],
  ['1.0.0.0', null],
  // 10.0.0.0/8
  ['9.255.255.255', null],
  ['10.0.0.0', 'private_address'],
  ['10.255.255.255', 'private_address'],
  ['11.0.0.0', null],
  // 100.64.0.0/10 shared address space (carrier-grade NAT)
  ['100.63.255.255', null],
  ['100.64.0.0', 'private_address'],
  ['100.127.255.255', 'private_address'],
  ['100.128.0.0', null],
  // 127.0.0.0/8
  ['126.255.255.255', null],
  ['127.0.0.0', 'loopback'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.255', 'loopback'],
  ['128.0.0.0', null],
  // 169.254.0.0/16, with the metadata services inside it
  ['169.253.255.255', null],
  ['169.254.0.0', 'link_local'],
  ['169.254.169.253', 'link_local'],
  ['169.254.169.254', 'metadata'],
  ['169.254.169.255', 'link_local'],
  ['169.254.170.2', 'metadata'],
  ['169.254.170.23', 'metadata'],
  ['169.254.255.255', 'link_local'],
  ['169.255.0.0', null],
  // 172.16.0.0/12
  ['172.15.255.255', null],
  ['172.16.0.0', 'private_address'],
  ['172.31.255.255', 'private_address'],
  ['172.32.0.0', null],
  // 192.0.0.0/24 IETF protocol assignments, 192.0.2.0/24 TEST-NET-1
  ['191.255.255.255', null],
  ['192.0.0.0', 'reserved'],
  ['192.0.0.255', 'reserved'],
  ['192.0.1.0', null],
  ['192.0.1.255', null],
  ['192.0.2.0', 'reserved'],
  ['192.0.2.255', 'reserved'],
  ['192.0.3.0', null],
  // 192.88.99.0/24 former 6to4 relays
  ['192.88.98.255', null],
  ['192.88.99.0', 'reserved'],
  ['192.88.99.255', 'reserved'],
  ['192.88.100.0', null],
  // 192.168.0.0/16
  ['192.167.255.255', null],
  ['192.168.0.0', 'private_address'],
  ['192.168.255.255', 'private_address'],
  ['192.169.0.0', null],
  // 198.18.0.0/15 benchmarking
  ['198.17.255.255', null],
  ['198.18.0.0', 'reserved'],
  ['198.19.255.255', 'reserved'],
  ['198.20.0.0', null],
  // 198.51.100.0/24 TEST-NET-2
  ['198.51.99.255', null],
  ['198.51.100.0', 'reserved'],
  ['198.51.100.255', 'reserved'],
  ['198.51.101.0', null],
  // 203.0.113.0/24 TEST-NET-3
  ['203.0.112.255', null],
  ['203.0.113.0', 'reserved'],
  ['203.0.113.255', 'reserved'],
  ['203.0.114.0', null],
  // 224.0.0.0/4 multicast, then 240.0.0.0/4 reserved up to the limited broadcast address
  ['223.255.255.255', null],
  ['224.0.0.0', 'multicast'],
  ['239.255.255.255', 'multicast'],
  ['240.0.0.0', 'reserved'],
  ['255.255.255.254', 'reserved'],
  ['255.255.255.255', 'reserved'],
  // public addresses
  ['8.8.8.8', null],
  ['1.1.1.1', null],
  ['93.184.215.14', null],
];

const IPV6_EDGES: readonly (readonly [string, AddressRefusal | null])[] = [
  // the unspecified address, loopback, and the rest of ::/96 (deprecated IPv4-compatible addresses)
  ['::', 'reserved'],
  ['::1', 'loopback'],
  ['::2', 'reserved'],
  ['::ffff:ffff', 'reserved'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  // ::ffff:0:0/96 IPv4-mapped: judged by the IPv4 address inside, written either way
  ['::ffff:0.0.0.0', 'reserved'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:10.0.0.1', 'private_address'],
  ['::ffff:a00:1', 'private_address'],
  ['::ffff:172.31.255.255', 'private_address'],
  ['::ffff:192.168.1.1', 'private_address'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['::ffff:a9fe:a9fe', 'metadata'],
  ['::ffff:169.254.1.1', 'link_local'],
  ['::ffff:224.0.0.1', 'multicast'],
  ['::ffff:255.255.255.255', 'reserved'],
  ['0:0:0:0:0:ffff:808:808', null],
  ['::ffff:8.8.8.8', null],
  // 64:ff9b::/96 NAT64 and 64:ff9b:1::/48 local NAT64
  ['64:ff9b::', 'reserved'],
  ['64:ff9b::8.8.8.8', 'reserved'],
  ['64:ff9b::ffff:ffff', 'reserved'],
  ['64:ff9b:1::', 'reserved'],
  ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  // 100::/64 discard-only
  ['100::', 'reserved'],
  ['100::ffff:ffff:ffff:ffff', 'reserved'],
  // 2000::/3 global unicast: its edges are public…
  ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['2000::', null],
  ['3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', null],
  ['4000::', 'reserved'],
  // …but 2001::/23 (IETF protocol assignments, Teredo), 2001:db8::/32, 2002::/16 (6to4), 3fff::/20 are not
  ['2001::', 'reserved'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
  ['2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['2001:200::', null],
  ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', null],
  ['2001:db8::', 'reserved'],
  ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['2001:db9::', null],
  ['2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff', null],
  ['2002::', 'reserved'],
  ['2002:c000:0204::1', 'reserved'],
  ['2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['2003::', null],
  ['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', null],
  ['3fff::', 'reserved'],
  ['3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['3fff:1000::', null],
  // fc00::/7 unique local, with EC2's metadata service inside it
  ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['fc00::', 'private_address'],
  ['fd00:ec2::253', 'private_address'],
  ['fd00:ec2::254', 'metadata'],
  ['fd00:ec2::23', 'metadata'],
  ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'private_address'],
  // fe80::/10 link-local (with or without a zone), then the deprecated site-local fec0::/10
  ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['fe80::', 'link_local'],
  ['fe80::1%eth0', 'link_local'],
  ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link_local'],
  ['fec0::', 'reserved'],
  // ff00::/8 multicast
  ['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['ff00::', 'multicast'],
  ['ff02::1', 'multicast'],
  ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'multicast'],
  // public addresses, in upper case too
  ['2606:4700:4700::1111', null],
  ['2A00:1450:4001:0:0:0:0:200E', null],
];

describe('addresses', () => {
  it.each(IPV4_EDGES)('IPv4 %s → %s', (address, reason) => {
    // Act / Assess
    expect(addressRefusal(address)).toBe(reason);
  });

  it.each(IPV6_EDGES)('IPv6 %s → %s', (address, reason) => {
    // Act / Assess
    expect(addressRefusal(address)).toBe(reason);
  });

  it.each([
    ['127.0.0.1', null],
    ['127.255.255.255', null],
    ['::1', null],
    ['::ffff:127.0.0.1', null],
    ['0.0.0.0', 'reserved'],
    ['::', 'reserved'],
    ['10.0.0.1', 'private_address'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'link_local'],
    ['8.8.8.8', null],
  ] as const)('with loopback allowed (the local stack), %s → %s', (address, reason) => {
    // Act / Assess
    expect(addressRefusal(address, { loopbackAllowed: true })).toBe(reason);
  });

  it.each(['', 'example.com', '1.2.3', '1.2.3.256', '::g', '[::1]'])('refuses "%s", not an IP address', (text) => {
    // Act / Assess
    expect(addressRefusal(text)).toBe('reserved');
  });
});

const ok = (hostname: string, ipAddress: string | null = null) =>
  expect.objectContaining({ ok: true, hostname, ipAddress });

describe('webhook URLs', () => {
  it.each([
    ['https://hooks.example.com/hook', 'hooks.example.com'],
    ['https://hooks.example.com:8443/a/b?c=1&d=2', 'hooks.example.com'],
    ['https://Hooks.Example.COM/hook', 'hooks.example.com'],
    ['https://bücher.example/hook', 'xn--bcher-kva.example'],
    ['https://hooks.example.com./hook', 'hooks.example.com.'],
  ])('takes %s', (url, hostname) => {
    // Act / Assess
    expect(checkWebhookUrl(url)).toEqual(ok(hostname));
  });

  it('takes a public IP address as the host, without brackets for IPv6', () => {
    // Act / Assess
    expect(checkWebhookUrl('https://8.8.8.8/hook')).toEqual(ok('8.8.8.8', '8.8.8.8'));
    expect(checkWebhookUrl('https://[2606:4700:4700::1111]:8443/')).toEqual(
      ok('2606:4700:4700::1111', '2606:4700:4700::1111'),
    );
  });

  it(`is at most ${WEBHOOK_URL_MAX_LENGTH} characters long as sent, however long its stored (percent-encoded) form`, () => {
    // Prepare: the request schema counts characters as sent (code points, as JSON Schema's maxLength does).
    const { store } = webhookSchemas({});
    const base = 'https://hooks.example.com/';
    const longest = base + 'é'.repeat(WEBHOOK_URL_MAX_LENGTH - base.length);
    // Act
    const taken = v.safeParse(store, { url: longest });
    const refused = v.safeParse(store, { url: `${longest}é` });
    // Assess: stored as its href (each é is %C3%A9), which the checks then take as it is.
    expect(taken.success && taken.output.name).toBe(new URL(longest).href);
    expect(new URL(longest).href.length).toBeGreaterThan(5 * WEBHOOK_URL_MAX_LENGTH);
    expect(checkWebhookUrl(new URL(longest).href)).toMatchObject({ ok: true });
    expect(refused.issues?.[0]?.message).toBe(
      `The url field must not be longer than ${WEBHOOK_URL_MAX_LENGTH} characters.`,
    );
  });

  it('is taken as written: a scheme without its // (https:/host) is not mended', () => {
    // Act / Assess
    expect(checkWebhookUrl('https:/hooks.example.com/hook')).toEqual({ ok: false, reason: 'invalid_url' });
    expect(checkWebhookUrl('https:hooks.example.com/hook')).toEqual({ ok: false, reason: 'invalid_url' });
    expect(checkWebhookUrl('HTTPS://hooks.example.com/hook')).toMatchObject({ ok: true });
  });

  it.each([
    ['not a URL', 'not a url', 'invalid_url'],
    ['a relative URL', '/hook', 'invalid_url'],
    ['no host', 'https://', 'invalid_url'],
    ['port 0', 'https://hooks.example.com:0/', 'invalid_url'],
    ['a port above 65535', 'https://hooks.example.com:65536/', 'invalid_url'],
    ['leading white space', ' https://hooks.example.com/', 'invalid_url'],
    ['a new line', 'https://hooks.example.com/\n', 'invalid_url'],
    ['a tab in the host', 'https://hooks.exa\tmple.com/', 'invalid_url'],
    ['a NUL', 'https://hooks.example.com/\u0000', 'invalid_url'],
    ['plain HTTP', 'http://hooks.example.com/hook', 'scheme'],
    ['FTP', 'ftp://hooks.example.com/', 'scheme'],
    ['a WebSocket', 'wss://hooks.example.com/', 'scheme'],
    ['a file', 'file:///etc/passwd', 'scheme'],
    ['JavaScript', 'javascript:alert(1)', 'scheme'],
    ['a data URL', 'data:text/plain,hi', 'scheme'],
    ['a user and password', 'https://user:secret@hooks.example.com/', 'credentials'],
    ['a user alone', 'https://user@hooks.example.com/', 'credentials'],
    ['a password alone', 'https://:secret@hooks.example.com/', 'credentials'],
    ['a private address', 'https://10.0.0.1/hook', 'private_address'],
    ['a private address in 172.16/12', 'https://172.20.1.1/hook', 'private_address'],
    ['the metadata service', 'https://169.254.169.254/latest/meta-data/', 'metadata'],
    ['the metadata service over IPv6', 'https://[fd00:ec2::254]/latest/meta-data/', 'metadata'],
    ['a link-local address', 'https://169.254.1.1/', 'link_local'],
    ['a multicast address', 'https://239.1.1.1/', 'multicast'],
    ['loopback', 'https://127.0.0.1/hook', 'loopback'],
    ['IPv6 loopback', 'https://[::1]/hook', 'loopback'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['loopback in hexadecimal', 'https://0x7f.1/hook', 'loopback'],
    ['loopback as one number', 'https://2130706433/hook', 'loopback'],
    ['loopback in octal', 'https://0177.0.0.1/hook', 'loopback'],
    ['0.0.0.0 as "0"', 'https://0/hook', 'reserved'],
    ['localhost', 'https://localhost/hook', 'loopback'],
    ['localhost in capitals with a dot', 'https://LOCALHOST./hook', 'loopback'],
    ['a .localhost name', 'https://api.localhost/hook', 'loopback'],
    ['a one-label name', 'https://intranet/hook', 'internal_name'],
    ['an mDNS name', 'https://printer.local/hook', 'internal_name'],
    ['an EC2 internal name', 'https://ip-10-0-0-1.ec2.internal/hook', 'internal_name'],
    ['a home network name', 'https://nas.home.arpa/hook', 'internal_name'],
    // The URL parser would drop these from the host, so the URL called would not be the URL shown (issue 32).
    ['a soft hyphen in the host', 'https://hooks.exam\u00ADple.com/hook', 'invisible_host'],
    ['a zero-width space in the host', 'https://hooks\u200B.example.com/hook', 'invisible_host'],
    ['a combining grapheme joiner in the host', 'https://hooks.exa\u034Fmple.com/hook', 'invisible_host'],
    ['a variation selector in the host', 'https://hooks.example.com\uFE0F:8443/hook', 'invisible_host'],
  ])('refuses %s (%s): %s', (_, url, reason) => {
    // Act / Assess
    expect(checkWebhookUrl(url)).toEqual({ ok: false, reason });
  });
});

describe('webhook URLs on the local stack (loopback allowed)', () => {
  const local = { localLoopbackAllowed: true };

  it.each([
    ['http://127.0.0.1:9000/hook', '127.0.0.1', '127.0.0.1'],
    ['http://127.1.2.3:9000/hook', '127.1.2.3', '127.1.2.3'],
    ['http://[::1]:9000/hook', '::1', '::1'],
    ['http://localhost:9000/hook', 'localhost', null],
    ['https://127.0.0.1:9443/hook', '127.0.0.1', '127.0.0.1'],
    ['https://hooks.example.com/hook', 'hooks.example.com', null],
  ])('takes %s', (url, hostname, ipAddress) => {
    // Act / Assess
    expect(checkWebhookUrl(url, local)).toEqual(ok(hostname, ipAddress));
  });

  it.each([
    ['http://hooks.example.com/hook', 'scheme'],
    ['http://8.8.8.8/hook', 'scheme'],
    ['http://10.0.0.1/hook', 'private_address'],
    ['http://0.0.0.0:9000/hook', 'reserved'],
    ['https://169.254.169.254/', 'metadata'],
    ['http://user:pw@127.0.0.1:9000/hook', 'credentials'],
    ['ftp://127.0.0.1/', 'scheme'],
  ])('still refuses %s: %s', (url, reason) => {
    // Act / Assess
    expect(checkWebhookUrl(url, local)).toEqual({ ok: false, reason });
  });

  it('takes localhost with its trailing dot as it takes localhost (one answer for both)', () => {
    // Act / Assess
    expect(checkWebhookUrl('http://localhost.:9000/hook', local)).toMatchObject({ ok: true, ipAddress: null });
    expect(checkWebhookUrl('http://api.localhost.:9000/hook', local)).toMatchObject({ ok: true });
    expect(checkWebhookUrl('http://localhost.:9000/hook')).toEqual({ ok: false, reason: 'loopback' });
  });

  it('keeps, in a path or query, what it refuses in a host: the URL encodes it there, dropping nothing', () => {
    // Act / Assess
    expect(checkWebhookUrl('https://hooks.example.com/a\u00ADb?c=\u200B', local)).toMatchObject({ ok: true });
  });

  it('is the only place http:// to loopback is taken', () => {
    // Act / Assess
    expect(checkWebhookUrl('http://127.0.0.1:9000/hook')).toEqual({ ok: false, reason: 'loopback' });
    expect(checkWebhookUrl('http://localhost:9000/hook')).toEqual({ ok: false, reason: 'loopback' });
  });
});

describe("webhook URLs on the local stack: never the stack's own ports", () => {
  const local = { localLoopbackAllowed: true, reservedPorts: new Set([3000, 3001, 3002, 8000, 443]) };

  it.each([
    'http://127.0.0.1:3000/api/v1/spaces',
    'http://localhost:3001/',
    'http://[::1]:3002/2020-05-31/distribution',
    'http://127.0.0.2:8000/',
    'https://hooks.example.com/hook', // 443, when the stack holds it
    'https://hooks.example.com:8000/hook',
  ])('refuses %s', (url) => {
    // Act / Assess
    expect(checkWebhookUrl(url, local)).toEqual({ ok: false, reason: 'stack_port' });
  });

  it('takes every other port', () => {
    // Act / Assess
    expect(checkWebhookUrl('http://127.0.0.1:4000/hook', local)).toMatchObject({ ok: true });
    expect(checkWebhookUrl('https://hooks.example.com:8443/hook', local)).toMatchObject({ ok: true });
  });
});

describe('destinations (the URL, then its host’s addresses)', () => {
  const resolvingTo =
    (...addresses: string[]): Resolve =>
    async () =>
      addresses;

  it('gives the addresses of a host that resolves to public ones only', async () => {
    // Act
    const destination = await checkDestination('https://hooks.example.com/hook', {
      resolve: resolvingTo('93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'),
    });
    // Assess
    expect(destination).toEqual(
      expect.objectContaining({ ok: true, addresses: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] }),
    );
  });

  it.each([
    [['10.1.2.3'], 'private_address'],
    [['93.184.215.14', '10.1.2.3'], 'private_address'],
    [['93.184.215.14', '169.254.169.254'], 'metadata'],
    [['2606:4700:4700::1111', 'fd00:ec2::254'], 'metadata'],
    [['127.0.0.1'], 'loopback'],
    [['::ffff:192.168.0.1'], 'private_address'],
    [['fe80::1%eth0'], 'link_local'],
    [['0.0.0.0'], 'reserved'],
    [[], 'unresolvable'],
  ])('refuses a host resolving to %j: %s (one bad address is enough)', async (addresses, reason) => {
    // Act
    const destination = await checkDestination('https://hooks.example.com/hook', {
      resolve: resolvingTo(...addresses),
    });
    // Assess
    expect(destination).toEqual({ ok: false, reason });
  });

  it('refuses a host whose lookup fails', async () => {
    // Act
    const destination = await checkDestination('https://nowhere.example.com/hook', {
      resolve: () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })),
    });
    // Assess
    expect(destination).toEqual({ ok: false, reason: 'unresolvable' });
  });

  it('does not look up an IP address, nor a URL refused already', async () => {
    // Prepare
    const resolve = vi.fn(resolvingTo('8.8.8.8'));
    // Act
    const literal = await checkDestination('https://8.8.8.8/hook', { resolve });
    const refused = await checkDestination('http://hooks.example.com/hook', { resolve });
    // Assess
    expect(literal).toEqual(expect.objectContaining({ ok: true, addresses: ['8.8.8.8'] }));
    expect(refused).toEqual({ ok: false, reason: 'scheme' });
    expect(resolve).not.toHaveBeenCalled();
  });

  it('on the local stack, takes a name resolving to loopback, and http://localhost only while it is loopback', async () => {
    // Prepare
    const local = { localLoopbackAllowed: true };
    // Act / Assess
    await expect(
      checkDestination('https://hooks.example.com/', { ...local, resolve: resolvingTo('127.0.0.1') }),
    ).resolves.toEqual(expect.objectContaining({ ok: true }));
    await expect(
      checkDestination('http://localhost:9000/', { ...local, resolve: resolvingTo('127.0.0.1', '::1') }),
    ).resolves.toEqual(expect.objectContaining({ ok: true, addresses: ['127.0.0.1', '::1'] }));
    await expect(
      checkDestination('http://localhost:9000/', { ...local, resolve: resolvingTo('93.184.215.14') }),
    ).resolves.toEqual({ ok: false, reason: 'scheme' });
    await expect(
      checkDestination('https://hooks.example.com/', { resolve: resolvingTo('127.0.0.1') }),
    ).resolves.toEqual({ ok: false, reason: 'loopback' });
  });
});
