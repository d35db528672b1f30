/**
 * The edge sync's timeout covers its own worst retry path, derived from the SDK's settings rather than assumed:
 * each SDK call at its worst is every attempt (`maxAttempts`) running into its connection and request timeouts,
 * with the `standard` retry strategy's longest backoff before each retry (full jitter below the throttling base
 * × 2^retry, capped at 20 s, plus at most 5 s for a server's retry-after hint: @smithy/core's
 * `StandardRetryStrategy`); the sync's worst path is the longest chain of such calls it makes one after the
 * other, its writer's budget, and its DNS lookups' own budget. Nothing it retries itself goes past its budget.
 */
import { MAXIMUM_RETRY_DELAY, THROTTLING_RETRY_DELAY_BASE } from '@smithy/core/retry';
import { describe, expect, it } from 'vitest';
import { controlPlaneRetries } from '#functions/edge/sync.ts';
import { EDGE_SYNC_TIMEOUT } from '#infra/constructs/edge.ts';
import { stages } from '#infra/stages.ts';
import { dynamoClientConfig } from '#lib/data/dynamodb.ts';
import { createDnsResolver } from '#lib/dns/resolver.ts';
import { THROTTLED_TENANT_RETRIES } from '#lib/edge/sync.ts';
import { WRITER_SETTINGS } from '#lib/edge/writer.ts';

/** What a server's retry-after hint may add to a backoff (`refreshRetryTokenForRetry`: at most 5,000 ms). */
const RETRY_AFTER_MAX_MS = 5_000;

type SdkSettings = {
  maxAttempts: number;
  requestHandler: { connectionTimeout: number; requestTimeout: number; throwOnRequestTimeout: boolean };
};

/** One call at its worst: every attempt timing out, the longest backoff before each retry. */
function worstCallMs({ maxAttempts, requestHandler }: SdkSettings): number {
  expect(requestHandler.throwOnRequestTimeout).toBe(true);
  const attempt = requestHandler.connectionTimeout + requestHandler.requestTimeout;
  let backoff = 0;
  for (let retry = 0; retry < maxAttempts - 1; retry++) {
    backoff += Math.min(THROTTLING_RETRY_DELAY_BASE * 2 ** retry, MAXIMUM_RETRY_DELAY) + RETRY_AFTER_MAX_MS;
  }
  return maxAttempts * attempt + backoff;
}

describe("the edge sync's timeout", () => {
  it('covers its worst retry path, with every SDK call at its worst', () => {
    // Prepare
    expect(controlPlaneRetries.retryMode).toBe('standard'); // adaptive may also wait on its own rate limiter
    const cloudFront = worstCallMs(controlPlaneRetries);
    const dynamo = worstCallMs(dynamoClientConfig);
    // A DNS lookup's own budget (`createDnsResolver`, the longest DNS_TIMEOUT_MS), two per route check.
    const dns = createDnsResolver({ timeoutMs: 2_000 }).budgetMs * 2;
    const shards = stages.prod.edge.shards;
    // The longest chain of calls one sync makes one after the other (lib/edge/sync.ts, functions/edge/sync.ts):
    const path = {
      // the domain by name: its guard, then its item
      activeDomain: 2 * dynamo,
      // its placement: the counts, then one transaction (and a read back) per shard tried
      placement: dynamo + shards * 2 * dynamo,
      // the store's value before, the writer (its budget, and the one call under way when it runs out), after
      store: cloudFront + WRITER_SETTINGS.budgetMs + Math.max(cloudFront, dynamo) + cloudFront,
      // its tenant, at its longest: found by domain, its certificate read, DNS checked, the failed certificate's
      // details read, the tenant updated with a new request, the failed certificate deleted from ACM
      // (a new host's is shorter: found, DNS checked, created, found again, its certificate read)
      // — tried again while the control plane throttles, within its budget, the last try under way when it ends
      tenant: THROTTLED_TENANT_RETRIES.budgetMs + 5 * cloudFront + dns,
      // its serving recorded: the item read, then its transaction
      record: 2 * dynamo,
    };
    const worst = Object.values(path).reduce((sum, ms) => sum + ms, 0);
    // Assess
    expect(worst).toBeLessThan(EDGE_SYNC_TIMEOUT.toMilliseconds());
    expect({ cloudFront, dynamo, worst }).toEqual({ cloudFront: 23_500, dynamo: 20_500, worst: expect.any(Number) });
  });

  it("keeps the writer's budget and lease well inside the timeout, and its waits short", () => {
    // Assess
    expect(WRITER_SETTINGS.budgetMs).toBeLessThan(EDGE_SYNC_TIMEOUT.toMilliseconds() / 4);
    expect(WRITER_SETTINGS.leaseMs).toBeLessThan(WRITER_SETTINGS.budgetMs);
    expect(WRITER_SETTINGS.backoff.capMs).toBeLessThan(WRITER_SETTINGS.leaseMs);
  });
});
