/** What the edge section's measurements share: the stack's settings they rely on, spreads, a domain as shown. */
import type { Api } from '#bench/stack/http.ts';
import { median, percentile, round } from '#bench/support.ts';
import { verificationName } from '#lib/domains/rules/verification.ts';
import type { DnsTestServer } from '#test/support/dns-server.ts';

/** A write not served (or a domain not active) within this long counts as not served. */
export const GIVE_UP_MS = 5_000;
/** The follower's poll of the feed heads (`intervalMs` in infra/local/start.ts). */
export const FEED_INTERVAL_MS = 500;
/**
 * The host a served domain's CNAME names: the stack's `EDGE_HOSTNAME` (bench/run.ts sets it for every section),
 * the routing endpoint of the local CloudFront's connection group.
 */
export const EDGE_HOSTNAME = process.env.EDGE_HOSTNAME || 'edge.localhost';

export type EdgeSpread = { median: number; p95: number; max: number; min: number };

export const spreadOf = (values: readonly number[]): EdgeSpread => ({
  median: round(median(values), 1),
  p95: round(percentile(values, 95), 1),
  max: round(Math.max(...values), 1),
  min: round(Math.min(...values), 1),
});

/** A domain as the API shows it: what the bench reads of it. */
export type Shown = { id: number; serving: string; verification: { name: string; value: string } };

/** Stores a domain through the API and publishes its TXT record. */
export async function storedDomain(api: Api, dns: DnsTestServer, name: string, indexPage: string) {
  const stored = await api('POST', '/domains', { form: { name, index_page: indexPage } });
  const shown = stored.data as unknown as Shown;
  dns.setTxt(shown.verification.name, [shown.verification.value]);
  return shown;
}

/** Forgets a domain's records in the DNS server. */
export function unpublish(dns: DnsTestServer, name: string) {
  dns.clear(name);
  dns.clear(verificationName(name));
}
