/**
 * The fuzzer's own knowledge of webhook URLs, written from the document's description and the contract (issue
 * 27), not from the service's code: where the fuzzer's DNS server points each host, which URLs the stack must
 * refuse (422 on `url`), and what it stores for the others (the WHATWG href). Its address ranges are its own
 * table, from IANA's special-purpose registries.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** How the stack takes webhook URLs, and where the fuzzer's DNS server points their hosts. */
export type WebhookStack = {
  /** The local stack's `WEBHOOK_LOCAL_LOOPBACK`: `http://` to loopback, and loopback addresses, are taken too. */
  loopbackAllowed: boolean;
  /**
   * What every public name resolves to. A stack that delivers (`npm start`, with its worker) calls the URLs it
   * stores: there it is a loopback address (with `loopbackAllowed`), so that nothing leaves the machine.
   */
  publicAddress: string;
  /** The stack delivers the events of the webhooks it stores (a worker on the feed): no URL may reach out. */
  delivers: boolean;
};

/** A host with a label starting so resolves to a private address: a store with it is refused. */
export const PRIVATE_LABEL = 'private-';
export const PRIVATE_ADDRESS = '10.0.0.5';
const LOOPBACK_ADDRESS = '127.0.0.1';

/** Names a resolver answers with loopback (RFC 6761). */
const isLoopbackName = (name: string) => name === 'localhost' || name.endsWith('.localhost');

/** The IPv4 addresses the fuzzer's DNS server gives a host name (no AAAA record: IPv4 only). */
export function addressesOf(hostname: string, stack: WebhookStack): string[] {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (isLoopbackName(name)) return [LOOPBACK_ADDRESS];
  if (name.split('.').some((label) => label.startsWith(PRIVATE_LABEL))) return [PRIVATE_ADDRESS];
  return [stack.publicAddress];
}

type Ranges = readonly (readonly [string, number])[];

const blockList = (ranges: Ranges, family: 'ipv4' | 'ipv6') => {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, family);
  return list;
};

/** IPv4 space that is not public unicast (RFC 6890 and its successors), loopback apart. */
const SPECIAL_V4 = blockList(
  [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 3], // multicast (224/4) and the reserved 240/4 with the broadcast address
  ],
  'ipv4',
);
const LOOPBACK_V4 = blockList([['127.0.0.0', 8]], 'ipv4');
/** Public IPv6 is global unicast (2000::/3) but its special blocks: IETF assignments, 6to4, documentation. */
const GLOBAL_V6 = blockList([['2000::', 3]], 'ipv6');
const SPECIAL_V6 = blockList(
  [
    ['2001::', 23],
    ['2001:db8::', 32],
    ['2002::', 16],
    ['3fff::', 20],
  ],
  'ipv6',
);
const MAPPED_V6 = blockList([['::ffff:0:0', 96]], 'ipv6');

type AddressClass = 'public' | 'loopback' | 'other';

/** An address's class: public unicast, loopback, or anything else (private, link-local, reserved…). */
export function classOf(address: string): AddressClass {
  if (isIPv4(address)) {
    if (LOOPBACK_V4.check(address, 'ipv4')) return 'loopback';
    return SPECIAL_V4.check(address, 'ipv4') ? 'other' : 'public';
  }
  if (!isIPv6(address)) return 'other';
  if (address === '::1') return 'loopback';
  if (MAPPED_V6.check(address, 'ipv6')) {
    // WHATWG writes `::ffff:a.b.c.d` as `::ffff:xxyy:zzww`: the last two groups are the IPv4 address.
    const [high = 0, low = 0] = address
      .split(':')
      .slice(-2)
      .map((group) => Number.parseInt(group, 16));
    return classOf([high >> 8, high & 0xff, low >> 8, low & 0xff].join('.'));
  }
  return GLOBAL_V6.check(address, 'ipv6') && !SPECIAL_V6.check(address, 'ipv6') ? 'public' : 'other';
}

/** Names only a local network resolves: one label, or these suffixes. */
const INTERNAL_SUFFIXES = ['.local', '.internal', '.localdomain', '.home.arpa', '.onion'];

/** Why the stack must refuse this URL (as a request sends it), or undefined when it must take it. */
export function webhookUrlRefusal(text: string, stack: WebhookStack): string | undefined {
  // Text holds no control character; the URL called is the one stored: no white space the parser would drop
  // or re-encode silently (around it, white space is trimmed as from any text).
  if (/\p{Cc}/u.test(text)) return 'a control character';
  const trimmed = text.trim();
  if (/\s/u.test(trimmed)) return 'white space in the URL';
  if (!URL.canParse(trimmed)) return 'not a URL';
  const url = new URL(trimmed);
  if (url.username !== '' || url.password !== '') return 'credentials';
  if (url.port === '0') return 'port 0';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = isIPv4(host) || isIPv6(host);
  const name = host.replace(/\.$/, '');
  const internal = !name.includes('.') || INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix));
  if (!literal && !isLoopbackName(name) && internal) {
    return 'an internal name';
  }
  const addresses = literal ? [host] : addressesOf(host, stack);
  const classes = addresses.map(classOf);
  const allowed = (each: AddressClass) => each === 'public' || (each === 'loopback' && stack.loopbackAllowed);
  if (!classes.every(allowed)) return `a host at ${addresses.join(', ')}`;
  if (url.protocol === 'https:') return undefined;
  // Plain HTTP: the local stack's receivers on this machine only, named so (`http://hooks.example.com/hook` is
  // refused there too, wherever its name points).
  const loopback = literal ? classOf(host) === 'loopback' : isLoopbackName(name);
  return url.protocol === 'http:' && stack.loopbackAllowed && loopback ? undefined : `the scheme ${url.protocol}`;
}

/** The URL as the stack stores and shows it: its WHATWG href (ASCII host, percent-encoded, default port dropped). */
export const storedWebhookUrl = (text: string) => new URL(text.trim()).href;

/** A URL whose host is a public IP address: a stack that delivers would call it. */
export function callsPublicAddress(text: string): boolean {
  if (!URL.canParse(text.trim())) return false;
  const host = new URL(text.trim()).hostname.replace(/^\[(.*)\]$/, '$1');
  return (isIPv4(host) || isIPv6(host)) && classOf(host) === 'public';
}

/** The host a DNS server is asked for (none for an IP address), as the URL parser gives it. */
export function hostToResolve(text: string): string | undefined {
  if (!URL.canParse(text.trim())) return undefined;
  const host = new URL(text.trim()).hostname;
  return host === '' || host.startsWith('[') || isIPv4(host) ? undefined : host;
}
