/**
 * The `DNS_RESOLVER` setting: which DNS servers the functions ask instead of the system resolver
 * (a test server, or one a developer runs for `npm start`). Pure, so the configuration loader can use it.
 */
import { isIPv4, isIPv6 } from 'node:net';

export const DEFAULT_DNS_PORT = 53;

const EXPECTED = 'must be a comma-separated list of IP:port (e.g. 127.0.0.1:5353,[::1]:53; port 53 if omitted)';

/** A bad `DNS_RESOLVER` value; the message reads after the setting's name ("DNS_RESOLVER must be …"). */
export class DnsServersError extends Error {
  override name = 'DnsServersError';
}

function parsePort(entry: string, port: string): number {
  const number = Number(port);
  if (!/^\d{1,5}$/.test(port) || number < 1 || number > 65_535) {
    throw new DnsServersError(`${EXPECTED}; "${entry}" has no valid port (1-65535)`);
  }
  return number;
}

/** One entry as `Resolver.setServers` takes it: `1.2.3.4:53` or `[::1]:53`. */
function parseServer(entry: string): string {
  // `[v6]` or `[v6]:port`; a bare IPv6 address (no brackets) cannot carry a port.
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(entry);
  if (bracketed) {
    const [, host = '', port] = bracketed;
    if (!isIPv6(host)) throw new DnsServersError(`${EXPECTED}; "${entry}" is not an IPv6 address in brackets`);
    return `[${host}]:${port === undefined ? DEFAULT_DNS_PORT : parsePort(entry, port)}`;
  }
  if (isIPv6(entry)) return `[${entry}]:${DEFAULT_DNS_PORT}`;
  const [host = '', port, ...rest] = entry.split(':');
  // Host names are refused: the resolver needs addresses, and resolving the resolver would need DNS.
  if (rest.length > 0 || !isIPv4(host)) throw new DnsServersError(`${EXPECTED}; "${entry}" is not an IP address`);
  return `${host}:${port === undefined ? DEFAULT_DNS_PORT : parsePort(entry, port)}`;
}

/**
 * Parses `DNS_RESOLVER` (`host:port[,host:port…]`, IPv4 or bracketed IPv6, default port 53) into the
 * servers' `host:port` forms, in order. Throws a `DnsServersError` naming the first bad entry.
 */
export function parseDnsServers(value: string): string[] {
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.some((entry) => entry === '')) {
    throw new DnsServersError(`${EXPECTED}; "${value}" has an empty entry`);
  }
  return entries.map(parseServer);
}
