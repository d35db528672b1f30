/**
 * The edge sync at volume, as Lambda runs it: verified domains seeded in bulk, and their events delivered by
 * concurrent sync environments (`create` in functions/edge/sync.ts, each with SDK clients of its own) with
 * Lambda's asynchronous retries before a dead letter. Shared by the small-scale test
 * (test/harness/edge-scale.test.ts) and the full-scale benchmark (bench/edge/scale.ts).
 */
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { cloudFrontEdge, create, type Edge, type SyncEvent } from '#functions/edge/sync.ts';
import type { Db } from '#lib/data/dynamodb.ts';
import { itemOf, recordOf } from '#lib/data/item.ts';
import { domainNameGuardKey, itemKey } from '#lib/data/keys.ts';
import { type DomainRecord, storeDomain, verifyDomain } from '#lib/domains/data/domains.ts';
import type { LookupRecords } from '#lib/domains/rules/dns-records.ts';
import type { EdgeConfig } from '#lib/edge/settings.ts';
import { type WriterStats, writerStats } from '#lib/edge/writer.ts';
import type { CloudFrontHarness, Retries } from './cloudfront-harness.ts';

/** Lambda's asynchronous invocation: the first attempt and two retries, then the dead-letter queue. */
export const LAMBDA_ATTEMPTS = 3;

export type ScaleDomain = { owner: string; name: string; id: number };

export const syncEventFor = (owner: string, name: string, type = 'domain.verified'): SyncEvent =>
  ({ 'detail-type': type, detail: { id: '000000000001', type, owner, data: { name } } }) as unknown as SyncEvent;

/** A domain stored and verified through the API's own writes, by an owner of its own. */
async function verifiedThroughApi(db: Db, name: string): Promise<ScaleDomain> {
  const owner = `owner-${randomUUID()}`;
  const stored = (await storeDomain(db, owner, { name, indexPage: 'https://a.example/', notFoundPage: null })).result;
  const found: LookupRecords = async () => ({ txt: { kind: 'found', values: [stored.verificationToken ?? ''] } });
  await verifyDomain(db, found, owner, stored.id);
  return { owner, name, id: stored.id };
}

/**
 * Verified domains of owners of their own, their DNS pointing at the edge: the first `throughApi` (at least one)
 * through the API's own writes (store, verify: these can be deleted through the API too), the rest written as
 * those leave the domain (the item, active, and its name's global guard), in batches, so that seeding thousands
 * takes seconds.
 */
export async function seedActiveDomains(
  db: Db,
  cf: CloudFrontHarness,
  count: number,
  tag: string,
  options: { throughApi?: number } = {},
): Promise<ScaleDomain[]> {
  const made: ScaleDomain[] = [];
  const throughApi = Math.min(count, Math.max(1, options.throughApi ?? 1));
  for (let at = 0; at < throughApi; at++) made.push(await verifiedThroughApi(db, `${tag}-${at}.scale.example`));
  const [first] = made as [ScaleDomain];
  const {
    pk: _pk,
    sk: _sk,
    ...shape
  } = (await db.client.send(new GetCommand({ TableName: db.tableName, Key: itemKey(first.owner, 'domain', first.id) })))
    .Item as Record<string, unknown>;
  const seeded: ScaleDomain[] = [];
  for (let at = throughApi; at < count; at++) {
    seeded.push({ owner: `owner-${randomUUID()}`, name: `${tag}-${at}.scale.example`, id: 1 });
  }
  made.push(...seeded);
  const items = seeded.flatMap(({ owner: each, name, id }) => {
    const { nextCheckAt: _due, ...record } = recordOf<DomainRecord>('domain', { ...shape, name, id });
    return [itemOf(each, 'domain', record), { ...domainNameGuardKey(name), owner: each, id }];
  });
  const chunks: Record<string, unknown>[][] = [];
  for (let at = 0; at < items.length; at += 25) chunks.push(items.slice(at, at + 25));
  // A few batches at once: DynamoDB Local takes them one by one anyway.
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
        let unprocessed: Record<string, unknown>[] = chunk;
        while (unprocessed.length > 0) {
          const { UnprocessedItems } = await db.client.send(
            new BatchWriteCommand({
              RequestItems: { [db.tableName]: unprocessed.map((Item) => ({ PutRequest: { Item } })) },
            }),
          );
          unprocessed = (UnprocessedItems?.[db.tableName] ?? []).flatMap((request) =>
            request.PutRequest?.Item ? [request.PutRequest.Item] : [],
          );
        }
      }
    }),
  );
  for (const domain of made) cf.pointAt(domain.name);
  return made;
}

export type Delivery = {
  /** Every invocation that threw (its event is retried, up to `LAMBDA_ATTEMPTS` in all). */
  failures: string[];
  deadLetters: SyncEvent[];
  stats: WriterStats;
};

/**
 * Delivers the events as EventBridge and Lambda would: `concurrency` environments, each a function of its own,
 * an event that failed tried again up to `LAMBDA_ATTEMPTS` times in all, then dead-lettered. `settled` is told of
 * every invocation that returned (the benchmark times each host's first serving from it).
 */
export async function deliverEvents(
  db: Db,
  cf: CloudFrontHarness,
  events: readonly SyncEvent[],
  config: EdgeConfig,
  options: {
    concurrency: number;
    retries?: Retries;
    settled?: (host: string) => void;
    /** How long each sync waits for a throttled control plane (the function's own by default). */
    throttledTenantRetries?: Edge['throttledTenantRetries'];
  },
): Promise<Delivery> {
  const stats = writerStats();
  const failures: string[] = [];
  const deadLetters: SyncEvent[] = [];
  const queue = events.map((event) => ({ event, attempt: 1 }));
  const retries = options.retries ?? { maxAttempts: 4, retryMode: 'standard' };
  const environments = Array.from({ length: options.concurrency }, () =>
    create(config, db, {
      ...cloudFrontEdge(config, cf.clientsWith(retries)),
      stats,
      ...(options.throttledTenantRetries ? { throttledTenantRetries: options.throttledTenantRetries } : {}),
    }),
  );
  await Promise.all(
    environments.map(async (sync) => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        try {
          await sync(job.event);
          options.settled?.(String((job.event.detail.data as { name: string }).name));
        } catch (error) {
          failures.push(String(error));
          if (job.attempt < LAMBDA_ATTEMPTS) queue.push({ event: job.event, attempt: job.attempt + 1 });
          else deadLetters.push(job.event);
        }
      }
    }),
  );
  return { failures, deadLetters, stats };
}
