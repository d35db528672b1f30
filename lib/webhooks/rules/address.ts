/**
 * Where a webhook may be delivered. A webhook URL is typed by a customer and called from inside our network,
 * so it must not reach what only our network can: the instance metadata service, private and loopback
 * addresses, link-local and multicast ones, or ranges reserved for documentation and special uses (server-side
 * request forgery). Checked when a URL is stored (`checkWebhookUrl`, then `checkDestination` with DNS) and
 * again at every delivery (DNS can change in between: `lib/webhooks/send.ts` resolves, checks the
 * addresses with `refusalOfAddresses`, then connects only to them).
 *
 * Each refusal carries a reason code the HTTP layer turns into a 422 message. Pure: the one lookup is injected.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { refusedCharacters } from '#lib/platform/characters.ts';

/** Why an address is no place to deliver to. */
export type AddressRefusal = 'private_address' | 'loopback' | 'link_local' | 'multicast' | 'metadata' | 'reserved';

/** Why a URL is refused before any lookup. */
export type UrlRefusal =
  | AddressRefusal
  /** Not an absolute URL, or one with white space or control characters in it. */
  | 'invalid_url'
  /** A host with a character the URL parser drops or maps away unseen (a soft hyphen, a zero-width space). */
  | 'invisible_host'
  | 'too_long'
  /** Not `https:` (nor, on the local stack, `http:` to loopback). */
  | 'scheme'
  | 'credentials'
  /** A name that only a local network resolves: one label, `.local`, `.internal`… */
  | 'internal_name'
  /** One of the local stack's own ports (its API, edge, DynamoDB Local, CloudFront): never a destination. */
  | 'stack_port';

/** Why a URL is refused once its host is resolved. */
export type DestinationRefusal = UrlRefusal | 'unresolvable';

export type Refused<Reason> = { ok: false; reason: Reason };

/**
 * Safari and most servers take URLs of up to 2,048 characters; a webhook URL needs far fewer. Counted as sent
 * (characters, as JSON Schema's `maxLength` counts them), by the request schema: the stored URL, percent-encoded,
 * may be longer, and is called as it is.
 */
export const WEBHOOK_URL_MAX_LENGTH = 2_048;

type Range = readonly [network: string, prefix: number];

/**
 * IPv4 ranges that are not public unicast, from IANA's special-purpose address registry (RFC 6890) and the
 * cloud's link-local services. The first reason whose ranges hold an address is its reason, so the metadata
 * addresses come before the link-local range that holds them.
 */
const IPV4_REFUSED: readonly (readonly [AddressRefusal, readonly Range[]])[] = [
  [
    'metadata',
    [
      ['169.254.169.254', 32], // EC2 instance metadata (IMDS), also on other clouds
      ['169.254.170.2', 32], // ECS task metadata and credentials
      ['169.254.170.23', 32], // EKS Pod Identity credentials
    ],
  ],
  ['loopback', [['127.0.0.0', 8]]],
  ['link_local', [['169.254.0.0', 16]]],
  ['multicast', [['224.0.0.0', 4]]],
  [
    'private_address',
    [
      ['10.0.0.0', 8],
      ['172.16.0.0', 12],
      ['192.168.0.0', 16],
      ['100.64.0.0', 10], // carrier-grade NAT's shared space: someone's private network
    ],
  ],
  [
    'reserved',
    [
      ['0.0.0.0', 8], // "this network": 0.0.0.0 reaches the local host on Linux
      ['192.0.0.0', 24], // IETF protocol assignments
      ['192.0.2.0', 24], // documentation (TEST-NET-1)
      ['192.88.99.0', 24], // the former 6to4 relay anycast
      ['198.18.0.0', 15], // benchmarking
      ['198.51.100.0', 24], // documentation (TEST-NET-2)
      ['203.0.113.0', 24], // documentation (TEST-NET-3)
      ['240.0.0.0', 4], // reserved for future use, with 255.255.255.255 (limited broadcast) at its end
    ],
  ],
];

/** The same for IPv6, IPv4-mapped addresses (`::ffff:a.b.c.d`) aside: those are judged by their IPv4 address. */
const IPV6_REFUSED: readonly (readonly [AddressRefusal, readonly Range[]])[] = [
  [
    'metadata',
    [
      ['fd00:ec2::254', 128], // EC2 instance metadata over IPv6
      ['fd00:ec2::23', 128], // EKS Pod Identity over IPv6
    ],
  ],
  ['loopback', [['::1', 128]]],
  ['link_local', [['fe80::', 10]]],
  ['multicast', [['ff00::', 8]]],
  ['private_address', [['fc00::', 7]]], // unique local addresses
  [
    'reserved',
    [
      ['::', 96], // the unspecified address and the deprecated IPv4-compatible ones
      ['64:ff9b::', 96], // NAT64: would reach the IPv4 address it embeds, whichever it is
      ['64:ff9b:1::', 48], // NAT64 for local use
      ['100::', 64], // discard-only
      ['2001::', 23], // IETF protocol assignments (Teredo among them, which embeds IPv4)
      ['2001:db8::', 32], // documentation
      ['2002::', 16], // 6to4: embeds an IPv4 address
      ['3fff::', 20], // documentation (RFC 9637)
    ],
  ],
];

function blockListOf(ranges: readonly Range[], family: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, family);
  return list;
}

const compiled = (table: typeof IPV4_REFUSED, family: 'ipv4' | 'ipv6') =>
  table.map(([reason, ranges]) => [reason, blockListOf(ranges, family)] as const);

/**
 * The block lists, built on first use: built at module scope they would be a side effect that keeps this module
 * (and what imports it) in every bundle that imports it for a type or a constant.
 */
let lists:
  | {
      v4: ReturnType<typeof compiled>;
      v6: ReturnType<typeof compiled>;
      /** Public IPv6 unicast lies in 2000::/3; everything outside it is reserved, whether named above or not. */
      globalUnicastV6: BlockList;
      ipv4Mapped: BlockList;
    }
  | undefined;
const blockLists = () => {
  lists ??= {
    v4: compiled(IPV4_REFUSED, 'ipv4'),
    v6: compiled(IPV6_REFUSED, 'ipv6'),
    globalUnicastV6: blockListOf([['2000::', 3]], 'ipv6'),
    ipv4Mapped: blockListOf([['::ffff:0:0', 96]], 'ipv6'),
  };
  return lists;
};

/** The eight 16-bit groups of a valid IPv6 address (zone removed), a trailing dotted IPv4 part included. */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].map((group) => Number.parseInt(group, 16));
}

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:0:0/96`) stands for: a connection to one reaches it. */
function mappedIPv4(address: string): string {
  const [high = 0, low = 0] = ipv6Groups(address).slice(6);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * Why an IP address is no place to deliver to, or null for a public unicast address. `loopbackAllowed` (the
 * local stack only) lets loopback addresses through. Anything that is not an IP address is `reserved`.
 */
export function addressRefusal(address: string, { loopbackAllowed = false } = {}): AddressRefusal | null {
  const reason = classify(address.replace(/%.*$/, ''));
  return reason === 'loopback' && loopbackAllowed ? null : reason;
}

function classify(address: string): AddressRefusal | null {
  const { v4, v6, globalUnicastV6, ipv4Mapped } = blockLists();
  if (isIPv4(address)) return v4.find(([, list]) => list.check(address, 'ipv4'))?.[0] ?? null;
  if (!isIPv6(address)) return 'reserved';
  if (ipv4Mapped.check(address, 'ipv6')) return classify(mappedIPv4(address));
  const listed = v6.find(([, list]) => list.check(address, 'ipv6'))?.[0];
  if (listed) return listed;
  return globalUnicastV6.check(address, 'ipv6') ? null : 'reserved';
}

/** Names that only a local network resolves (RFC 6762 `.local`, ICANN's private-use `.internal`, …). */
const INTERNAL_SUFFIXES = ['.local', '.internal', '.localdomain', '.home.arpa', '.onion'];

/** A host name that every resolver answers with loopback (RFC 6761). */
const isLoopbackName = (name: string) => name === 'localhost' || name.endsWith('.localhost');

export type UrlCheckOptions = {
  /** The local stack: `http://` to loopback, and loopback addresses, are allowed too. Never on AWS. */
  localLoopbackAllowed?: boolean;
  /**
   * The local stack's own ports (its API, edge, DynamoDB Local, local CloudFront), refused on any host: a webhook
   * must not make the stack call itself. Filled in as the stack's listeners start. None on AWS.
   */
  reservedPorts?: ReadonlySet<number>;
};

export type CheckedUrl = {
  ok: true;
  url: URL;
  /** The host as a connection names it: a name (lower case, punycode), or an IP address without brackets. */
  hostname: string;
  /** The host's address when the URL names one (no lookup needed), else null. */
  ipAddress: string | null;
};

/**
 * The checks that need no DNS, for the URL as stored: an absolute `https://` URL (on the local stack also
 * `http://` to loopback) without credentials, whose host is a public name or a public IP address. (Its length
 * is the request schema's to check, as sent.)
 */
export function checkWebhookUrl(text: string, options: UrlCheckOptions = {}): CheckedUrl | Refused<UrlRefusal> {
  const localLoopbackAllowed = options.localLoopbackAllowed ?? false;
  const refuse = (reason: UrlRefusal): Refused<UrlRefusal> => ({ ok: false, reason });
  // The URL parser would quietly drop these (tabs, new lines) or trim them: the stored URL is the one called.
  if (/[\s\p{Cc}]/u.test(text)) return refuse('invalid_url');
  // Nor may it mend `https:/host` or `https:host` into `https://host`: the URL is taken as written or not at all.
  if (!/^https?:\/\//i.test(text)) {
    const otherScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) && !/^https?:/i.test(text);
    return refuse(otherScheme ? 'scheme' : 'invalid_url');
  }
  // The host as written (up to the path, query or fragment; `\` is a slash in an http(s) URL): IDNA would drop
  // a soft hyphen or a zero-width space from it, so the URL stored would call another host than the one shown.
  const authority = text.replace(/^https?:\/\//i, '').split(/[/?#\\]/)[0] ?? '';
  if (refusedCharacters(authority, 'hostname')) return refuse('invisible_host');
  const url = parseUrl(text);
  if (!url) return refuse('invalid_url');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('scheme');
  if (url.hostname === '') return refuse('invalid_url');
  if (url.username !== '' || url.password !== '') return refuse('credentials');
  if (url.port === '0') return refuse('invalid_url');

  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const ipAddress = isIPv4(hostname) || isIPv6(hostname) ? hostname : null;
  // `localhost.` is `localhost` (a fully qualified name): judged alike, so both get the same answer.
  const name = hostname.replace(/\.$/, '');
  const hostRefusal = ipAddress
    ? addressRefusal(ipAddress, { loopbackAllowed: localLoopbackAllowed })
    : nameRefusal(name, localLoopbackAllowed);
  if (hostRefusal) return refuse(hostRefusal);
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (options.reservedPorts?.has(port)) return refuse('stack_port');

  // Plain HTTP only where nothing crosses a network: the local stack calling a receiver on the same machine.
  const loopbackHost = ipAddress ? addressRefusal(ipAddress) === 'loopback' : isLoopbackName(name);
  if (url.protocol === 'http:' && !(localLoopbackAllowed && loopbackHost)) return refuse('scheme');
  return { ok: true, url, hostname, ipAddress };
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function nameRefusal(name: string, loopbackAllowed: boolean): UrlRefusal | null {
  if (isLoopbackName(name)) return loopbackAllowed ? null : 'loopback';
  if (!name.includes('.') || INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix))) return 'internal_name';
  return null;
}

/**
 * Why the addresses a checked URL's host resolved to are no place to deliver to, or null when every one is
 * public (or loopback, where allowed). One bad address refuses them all: a connection may use any of them.
 */
export function refusalOfAddresses(
  checked: CheckedUrl,
  addresses: readonly string[],
  options: UrlCheckOptions = {},
): DestinationRefusal | null {
  if (addresses.length === 0) return 'unresolvable';
  const loopbackAllowed = options.localLoopbackAllowed ?? false;
  for (const address of addresses) {
    const refusal = addressRefusal(address, { loopbackAllowed });
    if (refusal) return refusal;
    // `http://localhost` is fine only while localhost is loopback.
    if (checked.url.protocol === 'http:' && addressRefusal(address) !== 'loopback') return 'scheme';
  }
  return null;
}

/** A host's IP addresses (IPv4 and IPv6); throws when they cannot be learned. */
export type Resolve = (hostname: string) => Promise<readonly string[]>;

export type Destination = CheckedUrl & { addresses: readonly string[] };

/**
 * The store-time check: the URL's rules, then its host's addresses as DNS gives them now. A lookup that fails
 * or finds nothing is `unresolvable`.
 */
export async function checkDestination(
  text: string,
  options: UrlCheckOptions & { resolve: Resolve },
): Promise<Destination | Refused<DestinationRefusal>> {
  const checked = checkWebhookUrl(text, options);
  if (!checked.ok) return checked;
  let addresses: readonly string[];
  try {
    addresses = checked.ipAddress ? [checked.ipAddress] : await options.resolve(checked.hostname);
  } catch {
    return { ok: false, reason: 'unresolvable' };
  }
  const refusal = refusalOfAddresses(checked, addresses, options);
  return refusal ? { ok: false, reason: refusal } : { ...checked, addresses };
}
