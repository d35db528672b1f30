/** Section 10 of the report: the edge at full scale (bench/edge/scale.ts), its verdict, and AWS's bounds on it. */
import type { EdgeScaleSection } from '#bench/edge/scale.ts';
import { ms, pass, plural, table } from '#bench/report/format.ts';
import type { Machine } from '#bench/support.ts';

/** The goals: every domain served with no dead letter; a burst of 10,000 served within 10 minutes. */
export const FULL_SCALE_GOAL = { domains: 100_000, burst: 10_000, burstSeconds: 600 } as const;

const count = (n: number) => n.toLocaleString('en-US');
const slowestBurst = (edge: EdgeScaleSection) =>
  edge.bursts.reduce((a, b) => (b.servedSeconds.max > a.servedSeconds.max ? b : a));
export const fullScaleHolds = (edge: EdgeScaleSection) =>
  edge.domains >= FULL_SCALE_GOAL.domains &&
  edge.served === edge.domains &&
  edge.deadLetters === 0 &&
  edge.failedInvocations === 0;
export const burstHolds = (edge: EdgeScaleSection) =>
  edge.bursts.every(
    (burst) => burst.servedAfterRecheck === burst.domains && burst.servedSeconds.max <= FULL_SCALE_GOAL.burstSeconds,
  );
const leftAs = (left: Record<string, number>) =>
  Object.entries(left)
    .map(([state, n]) => `${n} ${state}`)
    .join(', ') || '—';

/** The rows of the report's "Budgets" table. */
export function edgeScaleBudgetRows(edge: EdgeScaleSection): string[][] {
  const slowest = slowestBurst(edge);
  return [
    [
      'Edge at full scale: domains activated through the local CloudFront with AWS’s quotas (§10)',
      `${count(FULL_SCALE_GOAL.domains)} served, 0 dead letters, 0 failed invocations`,
      `${count(edge.served)} of ${count(edge.domains)} served, ${edge.deadLetters} dead letters, ${edge.failedInvocations} failed invocations`,
      pass(fullScaleHolds(edge)),
    ],
    [
      `Edge at full scale: a burst of ${count(edge.burst)}, CNAMEs to served, in the harness (§10: on AWS, CloudFront's rate and deployment bound it)`,
      `every domain ≤ ${FULL_SCALE_GOAL.burstSeconds / 60} min`,
      `slowest burst: median ${ms(slowest.servedSeconds.median, 0)} s, p95 ${ms(slowest.servedSeconds.p95, 0)} s, max ${ms(slowest.servedSeconds.max, 0)} s`,
      pass(burstHolds(edge)),
    ],
  ];
}

export function edgeScaleSection(edge: EdgeScaleSection, machine: Machine): string {
  const bursts = edge.bursts.map((burst, at) => [
    at + 1,
    count(burst.domains),
    count(burst.events),
    count(burst.served),
    leftAs(burst.leftAs),
    count(burst.servedAfterRecheck),
    ms(burst.servedSeconds.median, 1),
    ms(burst.servedSeconds.p95, 1),
    ms(burst.servedSeconds.max, 1),
    ms(burst.durationSeconds, 1),
    burst.failedInvocations,
    burst.deadLetters,
  ]);
  const shards = edge.perShard.map((shard, at) => [
    at,
    count(shard.hosts),
    count(shard.updateKeys),
    ms(shard.hosts / Math.max(1, shard.updateKeys), 1),
    ms(shard.keysPerSecond, 1),
  ]);
  const dynamo = Object.entries(edge.dynamoCallsPerDomain)
    .filter(([name]) => name !== 'BatchWriteItem')
    .map(([name, n]) => `${name} ${ms(n, 2)}`)
    .join(', ');
  const errors = Object.entries(edge.errors)
    .map(([key, n]) => `${key} ${count(n)}`)
    .join(', ');
  const { throttled, sweep, writer } = edge;
  const perDomain = edge.controlPlaneCallsPerDomain;
  const neededRate = (FULL_SCALE_GOAL.burst * perDomain) / FULL_SCALE_GOAL.burstSeconds;
  return [
    `## 10. The edge at ${count(edge.domains)} domains`,
    '',
    `\`bench/edge/scale.ts\`, on ${machine.cpuModel} (${machine.nproc} CPUs), Node ${edge.node}, load average ${edge.loadAverage.join(' / ')} at the start and ${edge.loadAverageAfter.join(' / ')} at the end, in ${plural(Math.round(edge.durationSeconds / 60), 'minute')}. ${count(edge.domains)} verified domains, each of an owner of its own, activated in bursts of ${count(edge.burst)}: each burst's CNAMEs published at once and its domains' events (\`domain.verified\`, and a \`domain.updated\` for a fifth of them) delivered by ${edge.concurrency} concurrent sync environments (\`create\` in \`functions/edge/sync.ts\`, each with SDK clients of its own, as Lambda scales the function out), an invocation that throws retried twice, then dead-lettered, as Lambda's asynchronous invocation does (\`test/support/edge-scale.ts\`, which the small-scale test in \`npm test\` shares). Against the local CloudFront (\`infra/local/cloudfront/\`) with AWS's quotas: ${ms(edge.quotas.storeBytes / 2 ** 20, 0)} MB a store, and tenants and certificates per account raised to ${count(edge.quotas.tenants)} each, as docs/deployment.md ("Quotas to raise") tells an operator to; every call answered after ${edge.latencyMs.min}–${edge.latencyMs.max} ms; certificates issued and tenants deployed at once (on AWS they take minutes: below). ${plural(edge.shards, 'shard')}, as prod's \`hostsPerShard\` (${count(edge.hostsPerShard)}) asks for this many domains. DynamoDB is an in-memory DynamoDB Local of the section's own; the whole section shares ${machine.nproc} CPUs, so the times below are this machine's throughput, not CloudFront's.`,
    '',
    table(
      [
        'Burst',
        'Domains',
        'Events',
        'Served by its events',
        'Left as',
        'Served after the re-check',
        'CNAME → served, median s',
        'p95 s',
        'max s',
        'Burst s',
        'Failed invocations',
        'Dead letters',
      ],
      bursts,
    ),
    '',
    `**Every domain:** ${count(edge.served)} of ${count(edge.domains)} served (store entry active on its shard, tenant enabled, deployed and certified), ${edge.failedInvocations} failed invocations, ${edge.deadLetters} dead letters. "Left as" is what a domain not yet served recorded when its burst's events were done (\`waiting_for_dns\`: the sync's DNS lookup of its CNAME timed out on this loaded machine; \`provisioning\`: a tenant not yet made); each such domain is news to the re-check, which sends its event again within 5 minutes, and the section does the same once the burst is done ("served after the re-check"); the times are those of the burst's own events.`,
    '',
    table(['Shard', 'Hosts', 'UpdateKeys calls', 'Keys per call', 'Keys written per second of the bursts'], shards),
    '',
    `**The writer.** ${count(writer.batches)} \`UpdateKeys\` batches of ${count(writer.keys)} keys (at most 50 a batch), ${writer.conflicts} conflicts with the store's version retried, ${count(writer.waits)} lease takes that found it held, ${count(writer.reads)} reads by waiting syncs of their own queued record, ${writer.retakes} retakes by a holder for what was queued while it wrote. One writer per shard at a time: the store's version moves only under it, so a conflict means the sweep deleted meanwhile.`,
    '',
    `**Calls per domain** over the bursts: ${ms(perDomain, 2)} CloudFront control-plane calls, repeats included (a new host: its tenant looked up, created, read back, its certificate read; a repeat: looked up, its certificate read), ${ms(edge.storeCallsPerDomain, 2)} KeyValueStore calls, and DynamoDB: ${dynamo}. Error answers met (expected ones: a new host has no tenant and no store entry yet): ${errors || 'none'}.`,
    '',
    `**Memory.** The section's process peaked at ${ms(edge.peakRssMb, 0)} MB RSS (${ms(edge.peakHeapMb, 0)} MB heap), holding the local CloudFront with every tenant and key, the ${edge.concurrency} sync environments and the bookkeeping of ${count(edge.domains)} domains: an upper bound for one sync environment, which handles one event at a time and holds one batch of at most 50 keys (the functions' measured RSS is in §6).`,
    '',
    `**The sweep.** After ${count(sweep.swept)} of the domains were deleted (their syncs wrote tombstones and disabled their tenants), one full pass over the ${count(sweep.keys)} keys of every store, with the clock past the tombstones' hour: ${plural(sweep.invocations, 'invocation')} of the sweep function as the schedule runs it (each stops starting work after its 60 s budget and keeps its cursor), ${count(sweep.pages)} \`ListKeys\` pages, ${count(sweep.swept)} tombstones and tenants and ${count(sweep.certificates)} certificates deleted, in ${ms(sweep.seconds, 0)} s. At one run every 5 minutes, a pass over ${count(sweep.keys)} keys takes ${plural(sweep.invocations, 'run')}.`,
    '',
    `**A throttling control plane.** ${count(throttled.domains)} domains in one burst against a control plane answering \`Throttling\` past ${throttled.rate} calls a second: ${count(throttled.throttles)} throttled calls, retried by the SDK and then by the sync's own budget (20 s, \`THROTTLED_TENANT_RETRIES\`); ${count(throttled.burst.served)} served by the burst's own events (median ${ms(throttled.burst.servedSeconds.median, 1)} s, max ${ms(throttled.burst.servedSeconds.max, 1)} s), left as ${leftAs(throttled.burst.leftAs)} once the sync's budget was spent, ${count(throttled.burst.servedAfterRecheck)} served after the re-check's round; ${throttled.burst.failedInvocations} failed invocations, ${throttled.burst.deadLetters} dead letters.`,
    '',
    '**The goal, and what AWS makes of it.** In the harness, the goal holds as the "Budgets" table shows. On AWS, three things the harness does not model bound it further:',
    '',
    `- **Quotas.** With the defaults, at most 2,500 domains can hold a certificate at once (ACM, "Number of ACM certificates", and 5,000 issued a year) and 10,000 a tenant (CloudFront, distribution tenants per account): ${count(edge.domains)} domains need both raised first, ACM's through the Support Center (docs/deployment.md, "Quotas to raise"). The alarms at 80 % say when.`,
    `- **The control plane's rate.** CloudFront's API Reference and quotas pages state no request rate for \`CreateDistributionTenant\` or the other tenant calls; they throttle with \`Throttling\`. A new host takes ${ms(perDomain, 1)} control-plane calls, so ${count(FULL_SCALE_GOAL.burst)} in ${FULL_SCALE_GOAL.burstSeconds / 60} minutes needs about ${ms(neededRate, 0)} calls a second sustained for the account. At a lower rate R the bound is R ÷ ${ms(perDomain, 1)} domains a second; the throttled run above shows that nothing fails then: the domains are served at the rate the control plane allows, and what the sync's budget cannot place waits for the re-check.`,
    '- **Deployment and certificates.** CloudFront deploys a new tenant and issues its managed certificate in minutes, which the harness does at once. The sync records `provisioning` and the re-check (every 5 minutes for a domain in its first 72 hours) records `active` once both are done, so on AWS a domain is served within 5 minutes of CloudFront finishing: the 10-minute goal holds only if CloudFront finishes within 5 minutes of the CNAME, which AWS does not promise.',
    '',
  ].join('\n');
}
