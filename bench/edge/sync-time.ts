/**
 * The time `syncHost` itself takes per kind of event, over the stage's edge on a local CloudFront
 * (`startStageEdge`: the key-value store and the tenants through the SDK clients, as the sync function reaches
 * CloudFront), with the CloudFront calls and DNS queries each kind makes.
 */
import { randomUUID } from 'node:crypto';
import { EDGE_HOSTNAME, unpublish } from '#bench/edge/common.ts';
import { median, percentile, progress, quick, round } from '#bench/support.ts';
import type { CloudFrontCall } from '#infra/local/cloudfront/index.ts';
import { startStageEdge } from '#infra/local/stage-edge.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { createDnsResolver } from '#lib/dns/resolver.ts';
import {
  destroyDomain,
  edgeSyncDeps,
  recheckDomain,
  storeDomain,
  updateDomain,
  verifyDomain,
} from '#lib/domains/data/domains.ts';
import { recordsLookup } from '#lib/domains/lookups.ts';
import { verificationName } from '#lib/domains/rules/verification.ts';
import type { ServingState } from '#lib/edge/rules/serving.ts';
import { type SyncDeps, type SyncOutcome, syncHost } from '#lib/edge/sync.ts';
import { loadConfig } from '#lib/platform/config.ts';
import type { DnsTestServer } from '#test/support/dns-server.ts';

/** Domains taken through each kind of event (two domains each), after a few unmeasured. */
const SYNC_DOMAINS = quick ? 5 : 30;
const SYNC_WARM_UP = 3;

export type SyncKind = {
  kind: string;
  outcome: SyncOutcome;
  /** What the tenants' `ensure` found (the domain's serving after the sync); `none` for a host no longer served. */
  serving: ServingState | 'none';
  n: number;
  medianMs: number;
  p95Ms: number;
  /** The part spent looking the domain up in DynamoDB (`activeDomainByName`), median, ms. */
  lookupMedianMs: number;
  /** The key-value store's read and conditional write (SigV4A-signed calls), median, ms. */
  storeMedianMs: number;
  /** The tenant's part (`ensure`/`remove`: CloudFront control-plane calls, the DNS check), median, ms. */
  tenantMedianMs: number;
  /** Recording the domain's new serving state (`recordServing`, a DynamoDB read and write), median, ms. */
  recordMedianMs: number;
  /** Syncs that recorded a new serving state. */
  recorded: number;
  /** CloudFront calls per sync (the KeyValueStore's and the control plane's), and which, in order. */
  cloudFrontCalls: number;
  operations: string[];
  /** DNS queries for the host per sync: the sync's own check, and the local CloudFront's ownership check. */
  dnsQueries: number;
};

export type SyncTime = { domains: number; warmUp: number; kinds: SyncKind[] };

/** Operations in order, repeats folded: `GetKey`, `PutKey`, `GetDistributionTenantByDomain ×2`. */
function operationsOf(calls: readonly CloudFrontCall[]): string[] {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.operation, (counts.get(call.operation) ?? 0) + 1);
  return [...counts].map(([operation, count]) => (count > 1 ? `${operation} ×${count}` : operation));
}

type SyncSample = {
  outcome: SyncOutcome;
  serving: ServingState | 'none';
  ms: number;
  lookupMs: number;
  tenantMs: number;
  recordMs: number;
  recorded: boolean;
  calls: CloudFrontCall[];
  dnsQueries: number;
};

/**
 * Without the stack (stopped before): domains written with the data layer the API's functions use, in the same
 * table under an owner of their own, and synced here by `syncHost` over `startStageEdge(...).edge` (the local
 * CloudFront's store and tenants through the SDK clients: SigV4A for the store), one sync after each event, as
 * the sync function runs for the event. Each part timed apart: the DynamoDB lookup, the tenant's `ensure` or
 * `remove`, the serving recorded; the rest is the store's read and conditional write.
 */
export async function syncTime(dns: DnsTestServer): Promise<SyncTime> {
  const config = loadConfig({ ...process.env, DNS_RESOLVER: dns.address, EDGE_HOSTNAME });
  const db = createDb(config);
  const stage = await startStageEdge({ config, tenantPrefix: 'bench-edge-sync' });
  const lookupRecords = recordsLookup(createDnsResolver({ servers: [dns.address] }), EDGE_HOSTNAME);
  const owner = `bench-sync-${randomUUID().slice(0, 8)}`;
  const tenants = stage.edge.tenants;
  if (!tenants) throw new Error('The stage edge has no tenants');
  const data = edgeSyncDeps(db);
  // What the current sync spent where.
  let part = { lookupMs: 0, tenantMs: 0, recordMs: 0, recorded: false, serving: 'none' as SyncSample['serving'] };
  const timed = async <T>(key: 'lookupMs' | 'tenantMs' | 'recordMs', work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await work();
    } finally {
      part[key] += performance.now() - start;
    }
  };
  const deps: SyncDeps = {
    store: stage.edge.store,
    activeDomain: (host) => timed('lookupMs', () => data.activeDomain(host)),
    tenants: {
      ensure: (host) =>
        timed('tenantMs', async () => {
          const serving = await tenants.ensure(host);
          part.serving = serving.state;
          return serving;
        }),
      remove: (host) => timed('tenantMs', () => tenants.remove(host)),
    },
    recordServing: (domain, serving) =>
      timed('recordMs', async () => {
        part.recorded = true;
        await data.recordServing(domain, serving);
      }),
  };
  const samples = new Map<string, SyncSample[]>();
  async function sync(kind: string | null, host: string) {
    part = { lookupMs: 0, tenantMs: 0, recordMs: 0, recorded: false, serving: 'none' };
    const callsBefore = stage.cloudFront.calls.length;
    const queriesBefore = dns.queries(host);
    const start = performance.now();
    const outcome = await syncHost(deps, host);
    const ms = performance.now() - start;
    if (kind === null) return;
    samples.set(kind, [
      ...(samples.get(kind) ?? []),
      {
        outcome,
        ms,
        ...part,
        calls: stage.cloudFront.calls.slice(callsBefore),
        dnsQueries: dns.queries(host) - queriesBefore,
      },
    ]);
  }

  /** Two domains: one verified before its CNAME (found later by the re-check), one verified with both records. */
  async function life(label: string, index: number, measured: boolean) {
    const kind = (name: string) => (measured ? name : null);
    const page = (n: string) => `https://www.example.org/${index}/${n}`;
    const store = async (name: string) => {
      const item = (await storeDomain(db, owner, { name, indexPage: page('one'), notFoundPage: null })).result;
      dns.setTxt(verificationName(name), [item.verificationToken as string]);
      return item.id;
    };
    // Verified by its TXT record alone: the sync checks DNS, creates no tenant.
    const early = `${label}-${index}-early-${randomUUID().slice(0, 8)}.example.com`;
    const earlyId = await store(early);
    await verifyDomain(db, lookupRecords, owner, earlyId);
    await sync(kind('verify, no CNAME yet'), early);
    // Its CNAME published: the re-check records it (a `domain.updated`), whose sync creates the tenant.
    dns.setCname(early, EDGE_HOSTNAME);
    await recheckDomain(db, lookupRecords, owner, earlyId);
    await sync(kind('CNAME found by the re-check'), early);
    await destroyDomain(db, owner, earlyId);
    await sync(null, early);
    // Verified with both records in place: the tenant is created by the verify's sync.
    const name = `${label}-${index}-${randomUUID().slice(0, 8)}.example.com`;
    const id = await store(name);
    dns.setCname(name, EDGE_HOSTNAME);
    await verifyDomain(db, lookupRecords, owner, id);
    await sync(kind('verify with CNAME'), name);
    await sync(kind('re-sync, nothing changed'), name);
    await updateDomain(db, owner, id, { indexPage: page('two') });
    await sync(kind('update'), name);
    await destroyDomain(db, owner, id);
    await sync(kind('delete'), name);
    unpublish(dns, early);
    unpublish(dns, name);
  }

  try {
    // Unmeasured: the clients' first connections and signing keys, the code paths' first runs.
    for (let index = 1; index <= SYNC_WARM_UP; index++) await life('warm', index, false);
    progress(`edge syncHost: ${SYNC_DOMAINS} x 2 domains over the local CloudFront, six kinds of event`);
    for (let index = 1; index <= SYNC_DOMAINS; index++) await life('sync', index, true);
  } finally {
    await stage.close();
    db.client.destroy();
  }
  const medianOf = (list: readonly SyncSample[], pick: (sample: SyncSample) => number, digits = 3) =>
    round(median(list.map(pick)), digits);
  const kinds = [...samples].map(([kind, list]): SyncKind => {
    const outcomes = [...new Set(list.map((sample) => sample.outcome))];
    if (outcomes.length !== 1) throw new Error(`syncHost (${kind}) answered ${outcomes.join(' and ')}`);
    const servings = [...new Set(list.map((sample) => sample.serving))];
    if (servings.length !== 1) throw new Error(`syncHost (${kind}) found ${servings.join(' and ')}`);
    const first = list[0] as SyncSample;
    return {
      kind,
      outcome: outcomes[0] as SyncOutcome,
      serving: servings[0] as SyncKind['serving'],
      n: list.length,
      medianMs: medianOf(list, (sample) => sample.ms),
      p95Ms: round(
        percentile(
          list.map((sample) => sample.ms),
          95,
        ),
        3,
      ),
      lookupMedianMs: medianOf(list, (sample) => sample.lookupMs),
      storeMedianMs: medianOf(list, (sample) => sample.ms - sample.lookupMs - sample.tenantMs - sample.recordMs),
      tenantMedianMs: medianOf(list, (sample) => sample.tenantMs),
      recordMedianMs: medianOf(list, (sample) => sample.recordMs),
      recorded: list.filter((sample) => sample.recorded).length,
      cloudFrontCalls: medianOf(list, (sample) => sample.calls.length, 1),
      operations: operationsOf(first.calls),
      dnsQueries: medianOf(list, (sample) => sample.dnsQueries, 1),
    };
  });
  return { domains: SYNC_DOMAINS, warmUp: SYNC_WARM_UP, kinds };
}
