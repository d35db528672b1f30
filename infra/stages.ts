/**
 * Everything that differs between environments, in one typed place. `-c stage=dev|prod` picks one.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { AllowedOrigins } from '#lib/platform/origins.ts';
import type { Plans } from '#lib/platform/plans.ts';
import type { EdgeSettings } from './edge-function.ts';
import { functionSizing } from './function-sizing.ts';
import { plans } from './plans.ts';
import { type RateLimit, rateLimits } from './rate-limits.ts';

export const stageNames = ['dev', 'prod'] as const;
export type StageName = (typeof stageNames)[number];

/** Prefix of the stack and of every named resource: `domains-spaces-<stage>-...`. */
export const serviceName = 'domains-spaces';

export type FunctionSizing = { memorySize: number; timeout: Duration };

export type StageConfig = {
  stage: StageName;
  api: {
    /** Stage-wide steady rate (requests per second) and burst, before API Gateway answers 429. */
    throttle: { rateLimit: number; burstLimit: number };
    /**
     * How long API Gateway reuses an authorizer answer for the same Authorization header. It is also the
     * revocation bound: a revoked or expired key is refused within this period. It costs at most one
     * authorizer run (one GetItem; once an hour an UpdateItem for the key's last use) per key per period;
     * docs/deployment.md gives the figure.
     */
    authorizerCacheTtl: Duration;
  };
  /**
   * The origins whose pages may call the API from a browser (CORS): `*`, or a list of origins
   * (`https://app.example.com`, as browsers send `Origin`). The stack sets it in API Gateway's preflight,
   * 405 and document answers and its gateway responses, and in the handlers' `CORS_ALLOWED_ORIGINS`.
   */
  corsAllowedOrigins: AllowedOrigins;
  /** Per-key and per-IP limits per 60-second window (AWS WAF, and the local gateway per key): `rate-limits.ts`. */
  rateLimit: RateLimit;
  /** Retention of function logs and API access logs. */
  logRetention: RetentionDays;
  /** What happens to the table, log groups and secret when the stack is deleted. */
  removalPolicy: RemovalPolicy;
  table: { pointInTimeRecovery: boolean; deletionProtection: boolean };
  /** API handlers and the authorizer: see `function-sizing.ts`. */
  functions: FunctionSizing;
  /**
   * The plans owners may be put on, each the most domains, spaces and webhooks an owner may hold, and the
   * default one (`infra/plans.ts`): passed as `PLANS` to the store functions, `/account` and the fan-out.
   */
  plans: Plans;
  /** Webhook deliveries on AWS (`infra/constructs/webhook-delivery.ts`, docs/deployment.md "Webhooks"). */
  webhooks: {
    /**
     * Most delivery functions the queue's event source runs at once (its maximum concurrency, 2 to 1,000). Each
     * takes a batch of up to 10 jobs and attempts them in parallel, so this times 10 bounds the stage's
     * outbound calls in flight; jobs beyond it wait in the queue. It also bounds the Lambda concurrency
     * deliveries take from the account's, which the API's functions share.
     */
    deliveryConcurrency: number;
  };
  /** The edge that serves verified domains (`infra/constructs/edge.ts`, docs/deployment.md "The edge"). */
  edge: EdgeSettings & {
    /**
     * The host name domain owners point their CNAME at, shown in every domain's records (`EDGE_HOSTNAME`) and
     * output as `EdgeHostname`: e.g. a team's own `edge.example.net`, itself a CNAME to the stage's routing
     * endpoint. Absent: the routing endpoint of the stage's connection group (`d123.cloudfront.net`).
     */
    hostname?: string;
    /**
     * An Anycast static IP list (its id) for the stage's connection group: its routing endpoint then answers
     * the same fixed addresses everywhere, which apex domains can hold as A records (docs/deployment.md, "Apex
     * names"). Absent: CloudFront's usual addresses.
     */
    anycastIpListId?: string;
    /**
     * How many shards the edge has (docs/deployment.md, "Shards"): each a multi-tenant distribution with its
     * viewer-request function and its own key-value store (5 MB: about `hostsPerShard` hosts), all behind the
     * one connection group, so no customer's DNS depends on the shard. Raise it before the shards fill: a host
     * stays on the shard it was placed on, new ones go to the least full. Never lower it while hosts are on the
     * shards it would remove.
     */
    shards: number;
    /** Hosts a shard takes (`EDGE_SHARD_CAPACITY`): its store's 5 MB over typical records, with a margin. */
    hostsPerShard: number;
  };
  alarms: {
    /** Share of requests answered 5XX over one period, in percent. */
    api5xxRatePercent: number;
    /** p99 latency as API Gateway measures it (authorizer and integration included), in milliseconds. */
    apiP99LatencyMs: number;
    /** Errors (uncaught exceptions, timeouts) per function per period. */
    functionErrors: number;
    period: Duration;
    /** Consecutive breaching periods before an alarm fires. */
    evaluationPeriods: number;
    /** Requests the web ACL blocked (rate limits, managed rules) per period: a flood or a client stuck in a loop. */
    wafBlockedRequests: number;
  };
};

/**
 * No default pages: a served domain without its own answers 404. Redirects and 404s are cached a minute, so a
 * change of pages shows within one (README, "Serving").
 */
const edge = { defaultIndexPage: '', defaultNotFoundPage: '', cacheSeconds: 60, hostsPerShard: 30_000 } as const;

const functions: FunctionSizing = {
  memorySize: functionSizing.memorySize,
  timeout: Duration.seconds(functionSizing.timeoutSeconds),
};

export const stages: Record<StageName, StageConfig> = {
  dev: {
    stage: 'dev',
    api: { throttle: { rateLimit: 50, burstLimit: 100 }, authorizerCacheTtl: Duration.seconds(60) },
    // Any page: keys are bearer tokens a page must hold itself (no cookies), so `*` lends a page nothing.
    corsAllowedOrigins: '*',
    rateLimit: rateLimits.dev,
    plans: plans.dev,
    logRetention: RetentionDays.TWO_WEEKS,
    removalPolicy: RemovalPolicy.DESTROY,
    table: { pointInTimeRecovery: false, deletionProtection: false },
    functions,
    edge: { ...edge, shards: 1 },
    webhooks: { deliveryConcurrency: 2 },
    alarms: {
      api5xxRatePercent: 5,
      apiP99LatencyMs: 2_000,
      functionErrors: 5,
      period: Duration.minutes(5),
      evaluationPeriods: 3,
      wafBlockedRequests: 500,
    },
  },
  prod: {
    stage: 'prod',
    api: { throttle: { rateLimit: 500, burstLimit: 1_000 }, authorizerCacheTtl: Duration.seconds(60) },
    // As dev until the API has browser clients of its own to name here: a list narrows every answer to them.
    corsAllowedOrigins: '*',
    rateLimit: rateLimits.prod,
    plans: plans.prod,
    logRetention: RetentionDays.THREE_MONTHS,
    removalPolicy: RemovalPolicy.RETAIN,
    table: { pointInTimeRecovery: true, deletionProtection: true },
    functions,
    // 100,000 domains at ~30,000 a shard, with room to grow: raise before the alarm on hosts per shard.
    edge: { ...edge, shards: 4 },
    webhooks: { deliveryConcurrency: 10 },
    alarms: {
      api5xxRatePercent: 1,
      apiP99LatencyMs: 1_000,
      functionErrors: 1,
      period: Duration.minutes(1),
      evaluationPeriods: 5,
      wafBlockedRequests: 100,
    },
  },
};

export function stageConfig(name: unknown = 'dev'): StageConfig {
  if (!stageNames.includes(name as StageName)) {
    throw new Error(`Unknown stage "${String(name)}": use -c stage=${stageNames.join('|')}`);
  }
  return stages[name as StageName];
}
