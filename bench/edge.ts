/**
 * Section 8, the edge: one module per measurement in bench/edge/, run here in order.
 *  - the CloudFront Function's time per request (bench/edge/function-time.ts), first, on a quiet process;
 *  - the sync lag, from an API write to the local edge serving it (bench/edge/sync-lag.ts), and
 *  - the time from a domain's CNAME published to `serving: active`, by "check now" and by the re-check
 *    (bench/edge/activation.ts), both against the local stack of `npm start` (bench/stack/npm-start.ts) with the
 *    domains' records in a DNS server on 127.0.0.1 (test/support/dns-server.ts);
 *  - the time `syncHost` takes per kind of event over the stage's edge on a local CloudFront, once the stack is
 *    stopped (bench/edge/sync-time.ts).
 * Needs DYNAMODB_ENDPOINT, TABLE_NAME (a table of its own: the follower scans it) and CURSOR_SECRET.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type Activation, activation } from '#bench/edge/activation.ts';
import { EDGE_HOSTNAME } from '#bench/edge/common.ts';
import { BUDGET_MS, type FunctionTime, functionTime } from '#bench/edge/function-time.ts';
import { type SyncLag, syncLag } from '#bench/edge/sync-lag.ts';
import { type SyncTime, syncTime } from '#bench/edge/sync-time.ts';
import { type NpmStart, startNpmStart } from '#bench/stack/npm-start.ts';
import { benchDataDir, progress, quick, round, writeResult } from '#bench/support.ts';
import { startDnsServer } from '#test/support/dns-server.ts';

export type { ActivationPath } from '#bench/edge/activation.ts';
export type { EdgeSpread } from '#bench/edge/common.ts';
export type { EdgeCase } from '#bench/edge/function-time.ts';
export type { LagKind } from '#bench/edge/sync-lag.ts';
export type { SyncKind } from '#bench/edge/sync-time.ts';

export type EdgeSection = {
  node: string;
  budgetMs: number;
  function: FunctionTime;
  lag: SyncLag;
  activation: Activation;
  sync: SyncTime;
  edgeHostname: string;
  loadAverage: number[];
  /** The load average when the section ended. */
  loadAverageAfter: number[];
  durationSeconds: number;
};

/** `npm start` over this section's table, answering for the domains the DNS server at `dnsAddress` publishes. */
const startStack = (dnsAddress: string) =>
  startNpmStart(join(benchDataDir, quick ? 'quick' : '', 'edge-stack'), {
    DNS_RESOLVER: dnsAddress,
    // The CNAME target the domains' records name, and the local CloudFront's connection group's routing endpoint.
    EDGE_HOSTNAME,
    // The bench writes faster than the development key's limit allows.
    RATE_LIMIT_PER_MINUTE: '0',
    // The stack's own timer (re-check and sweep) stays out of the way: the bench runs the re-check itself.
    DOMAIN_CHECK_INTERVAL_SECONDS: String(24 * 3_600),
    DEFAULT_INDEX_PAGE: '',
    DEFAULT_NOT_FOUND_PAGE: '',
  });

async function main() {
  const started = Date.now();
  const loadAverage = loadavg().map((value) => round(value, 2));
  // First, before the stack starts: the function's timing on a quiet process.
  const fn = await functionTime();
  const dns = await startDnsServer();
  let stack: NpmStart | undefined;
  try {
    progress('edge: starting the local stack (npm start) against the bench DynamoDB Local');
    stack = await startStack(dns.address);
    const lag = await syncLag(stack, dns);
    const activated = await activation(stack, dns);
    // The stack stopped first: its follower would sync the next domains too.
    await stack.stop();
    stack = undefined;
    const sync = await syncTime(dns);
    const result: EdgeSection = {
      node: process.version,
      budgetMs: BUDGET_MS,
      function: fn,
      lag,
      activation: activated,
      sync,
      edgeHostname: EDGE_HOSTNAME,
      loadAverage,
      loadAverageAfter: loadavg().map((value) => round(value, 2)),
      durationSeconds: round((Date.now() - started) / 1000, 1),
    };
    writeResult(result);
  } finally {
    await stack?.stop();
    await dns.close();
  }
}

await main();
