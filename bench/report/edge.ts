/** Section 8 of the report: the edge function's time, the sync lag, CNAME to `active`, the sync per event. */
import type { EdgeSection } from '#bench/edge.ts';
import { budgetShare, slowestEdgeCase, worstLag } from '#bench/report/budgets.ts';
import { ms, table } from '#bench/report/format.ts';
import type { Machine } from '#bench/support.ts';

const RESTRICTIONS_URL =
  'https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/cloudfront-function-restrictions.html#cloudfront-function-restrictions-compute-utilization';
const TEST_RESULT_URL = 'https://docs.aws.amazon.com/cloudfront/latest/APIReference/API_TestResult.html';
const FUNCTIONS_URL = 'https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/cloudfront-functions.html';

export function edgeSection(edge: EdgeSection, machine: Machine): string {
  const fn = edge.function;
  const budgetUs = edge.budgetMs * 1000;
  const functionRows = fn.cases.map((c) => [
    c.name,
    `${c.method} ${c.uri}`,
    `\`${c.host}\``,
    c.status,
    ms(c.medianUs, 1),
    ms(c.p99Us, 1),
    ms(c.batchMeanUs, 1),
    `${ms(budgetShare(edge, c.medianUs))} %`,
    `${ms(budgetShare(edge, c.p99Us))} %`,
  ]);
  const lagRows = edge.lag.kinds.map((kind) => [
    kind.kind,
    kind.expected,
    kind.changes,
    `${kind.withinBound} of ${kind.changes}`,
    ms(kind.lagMs.median, 0),
    ms(kind.lagMs.p95, 0),
    ms(kind.lagMs.max, 0),
    ms(kind.lagMs.min, 0),
    ms(kind.writeMs, 1),
  ]);
  const { activation } = edge;
  const checkNow = activation.paths.find((path) => path.path === 'check now');
  const recheck = activation.paths.find((path) => path.path === 're-check');
  const giveUp = `${ms(activation.giveUpMs / 1000, 0)} s`;
  const activationRows = activation.paths.map((path) => [
    path.path,
    path.path === 'check now'
      ? `\`POST /domains/{id}/verify\`, answered \`serving: ${path.servingAfterTrigger.join(', ')}\``
      : `\`runDueChecks\`, ${path.checkedPerRun?.join(' or ') ?? '?'} domain checked per run`,
    ms(path.triggerMs, 0),
    `${path.activated} of ${path.domains}`,
    ms(path.activeMs.median, 0),
    ms(path.activeMs.p95, 0),
    ms(path.activeMs.max, 0),
    ms(path.activeMs.min, 0),
    `${ms(path.servedMs.median, 0)} / ${ms(path.servedMs.p95, 0)}`,
  ]);
  const recorded = (kind: EdgeSection['sync']['kinds'][number]) =>
    kind.recorded === 0 ? `— (0 of ${kind.n})` : `${ms(kind.recordMedianMs)} (${kind.recorded} of ${kind.n})`;
  const syncRows = edge.sync.kinds.map((kind) => [
    kind.kind,
    `\`${kind.outcome}\``,
    kind.serving === 'none' ? 'not served' : `\`${kind.serving}\``,
    kind.n,
    ms(kind.medianMs),
    ms(kind.p95Ms),
    ms(kind.lookupMedianMs),
    ms(kind.storeMedianMs),
    ms(kind.tenantMedianMs),
    recorded(kind),
    ms(kind.cloudFrontCalls, 0),
    ms(kind.dnsQueries, 0),
  ]);
  const callRows = edge.sync.kinds.map((kind) => [kind.kind, ms(kind.cloudFrontCalls, 0), kind.operations.join(', ')]);
  const slowest = slowestEdgeCase(edge);
  const fastest = fn.cases.reduce((a, b) => (b.medianUs < a.medianUs ? b : a));
  const worstP99 = fn.cases.reduce((a, b) => (b.p99Us > a.p99Us ? b : a));
  const worst = worstLag(edge);
  const medians = edge.lag.kinds.map((kind) => `${kind.kind} ${ms(kind.lagMs.median, 0)} ms`).join(', ');
  const spread = (values: number[], digits = 2) =>
    `${ms(Math.min(...values), digits)}–${ms(Math.max(...values), digits)}`;
  const syncSpread = spread(
    edge.sync.kinds.map((kind) => kind.medianMs),
    1,
  );
  const callSpread = spread(
    edge.sync.kinds.map((kind) => kind.cloudFrontCalls),
    0,
  );
  const byKind = (name: string) => edge.sync.kinds.find((kind) => kind.kind === name);
  const created = byKind('verify with CNAME');
  const waiting = byKind('verify, no CNAME yet');
  const quietSync = byKind('re-sync, nothing changed');
  // The two 404s differ in one thing: the unknown host's `get` throws (as CloudFront's does for a missing key).
  const unknown = fn.cases.find((c) => c.name.startsWith('unknown host'));
  const tombstone = fn.cases.find((c) => c.name.startsWith('deleted host'));
  const throwNote =
    unknown && tombstone && unknown.medianUs > 2 * tombstone.medianUs
      ? ` The unknown host costs the most, ${ms(unknown.medianUs / tombstone.medianUs, 1)}× the deleted host's 404 (${ms(tombstone.medianUs, 1)} µs), which answers the same: for a key it does not hold, the store's \`get\` throws, as CloudFront's does, and the function catches; creating that Error (with its stack trace, in V8) is the difference here.`
      : '';
  const allServed = worst.served === worst.changes;
  // The tenant serves before the sync records `active`: the edge redirects first, or within one poll of it.
  const redirectsFirst = activation.paths.every(
    (path) => path.activeMs.median - path.servedMs.median > activation.pollMs,
  );
  const redirectNote = redirectsFirst
    ? 'The edge redirects a little before the API shows `active`: the tenant serves before the sync records it.'
    : `The edge redirects within a poll (${activation.pollMs} ms) of the API showing \`active\`: the sync records it right after the tenant serves.`;
  const intervalMin = ms(activation.recheckIntervalMs / 60_000, 0);
  // Where a quiet run puts a waiting domain's next check, against the start of the run one interval later.
  const late = recheck?.nextDueAfterNextRunMs;
  const cadence = !late
    ? ''
    : late.min > 0
      ? `That due time counts from the check itself, which comes after its run started: here a run that found nothing new set the domain's next check ${ms(late.median, 0)} ms (median; ${ms(late.min, 0)}–${ms(late.max, 0)}) after the latest due time the run ${intervalMin} minutes later takes (its start plus a minute, \`DUE_AHEAD_MS\`), in each of the ${recheck.domains} runs. That run therefore finds it not yet due and the one after it checks it: as the code stands, a domain waiting for its CNAME is checked at every other run, every ${ms((2 * activation.recheckIntervalMs) / 60_000, 0)} minutes, so the run that finds a new CNAME comes up to ${ms((2 * activation.recheckIntervalMs) / 60_000, 0)} minutes after it is published (${intervalMin} on average), not ${intervalMin}. The owner's "check now" skips that wait.`
      : late.max <= 0
        ? `A run that found nothing new set the domain's next check ${ms(-late.median / 1000, 1)} s (median) before the latest due time the run ${intervalMin} minutes later takes (its start plus a minute, \`DUE_AHEAD_MS\`: each check is due an interval after it ran, a moment into its run) in each of the ${recheck.domains} runs, so each run checks it: the run that finds a new CNAME comes up to ${intervalMin} minutes after it is published. The owner's "check now" skips that wait.`
        : `A run that found nothing new set the domain's next check after the latest due time the run ${intervalMin} minutes later takes in some runs (${ms(late.min, 0)} to ${ms(late.max, 0)} ms from it): those domains are checked at every other run, so the run that finds a new CNAME comes up to ${ms((2 * activation.recheckIntervalMs) / 60_000, 0)} minutes after it is published. The owner's "check now" skips that wait.`;
  return [
    '## 8. The edge',
    '',
    "Visitors of a verified domain reach CloudFront through the domain's own tenant of the stage's multi-tenant distribution, and a CloudFront Function (`functions/edge/viewer-request.js`, runtime cloudfront-js-2.0) answers them from a CloudFront KeyValueStore. The edge sync (`syncHost`, `lib/edge/sync.ts`) keeps both in line with the table: the host's store entry at every domain event, and its tenant, created only once the host's DNS points at the stage's edge host name (`serving`: `pending` → `waiting_for_dns` → `provisioning` → `active`, or `failed`). Four questions: how long the function takes per request, against CloudFront Functions' compute budget; how long after an API write the edge serves the new state; how long after a waiting domain's CNAME is published it is `active`; and what one sync costs per kind of event.",
    '',
    `**The budget.** AWS documents the limit as compute utilization: "CloudFront Functions have a limit on the time they can take to run, measured as compute utilization. Compute utilization is a number between 0 and 100 that indicates the amount of time that the function took to run as a percentage of the maximum allowed time" ([Restrictions on CloudFront Functions, Compute utilization](${RESTRICTIONS_URL}); \`ComputeUtilization\` in [TestFunction's result](${TEST_RESULT_URL}) is defined the same way, "a compute utilization of 35 means that the function completed in 35% of the maximum allowed time"). AWS does not state the maximum allowed time in these pages; it describes the runtime as offering "submillisecond startup times" ([CloudFront Functions](${FUNCTIONS_URL})), and **${edge.budgetMs} ms** is the figure commonly cited for the budget, used here. The "% of ${edge.budgetMs} ms" columns are what compute utilization would read if this machine's time were CloudFront's.`,
    '',
    `**Function time per request.** The function loaded as the local edge loads it (\`loadEdgeFunction\`, \`infra/edge-function.ts\`: the same source in a \`node:vm\` sandbox), its \`cf.kvs()\` answered by an in-memory store (\`LocalKeyValueStore\`) holding ${fn.hosts.toLocaleString('en-US')} active hosts, an IDN host and a deleted host's tombstone, which throws for a key it does not hold as CloudFront's does (and as the local CloudFront's store, which the local edge reads, does). Each request is a viewer-request event as CloudFront builds it (the Host and a browser's usual headers), the same object every time. After ${fn.warmUp.toLocaleString('en-US')} unmeasured calls per case, ${fn.rounds} rounds, each running every case (interleaved, rotated every round) as a batch of ${fn.batch} requests timed one by one with \`process.hrtime.bigint()\` (median and p99 over the ${(fn.rounds * fn.batch).toLocaleString('en-US')} requests; a pair of timer calls costs ${fn.timerOverheadNs} ns here, included), then a batch of ${fn.batch} timed as a whole ("batch mean": time per request with no timer in the loop, median over the rounds). Node ${edge.node}.`,
    '',
    table(
      [
        'Request',
        'Method and path',
        'Host header',
        'Status',
        'Median µs',
        'p99 µs',
        'Batch mean µs',
        `Median, % of ${edge.budgetMs} ms`,
        `p99, % of ${edge.budgetMs} ms`,
      ],
      functionRows,
    ),
    '',
    `> **An indication, not CloudFront's figure.** This is V8 in Node on this machine's CPU (${machine.cpuModel}), with the store's \`get\` an in-memory map: not CloudFront's runtime, hardware or KeyValueStore. The ratio to the budget says how much room there is, to an order of magnitude; the deployed function's own figure is the \`ComputeUtilization\` that \`aws cloudfront test-function\` returns, and the compute utilization metric in CloudWatch.`,
    '',
    "Only hosts a tenant serves reach the function: CloudFront answers a host no tenant serves (unknown, pending, waiting for DNS, deleted) with its own 403, and so does the local edge. The two 404 rows are what the function answers for a served host whose store entry is missing or a tombstone: a deleted domain between its sync's tombstone and its tenant's disabling taking effect (minutes on AWS), say. They stay measured as the function's slowest path.",
    '',
    `**Sync lag.** The local stack of \`npm start\` (\`infra/local/start.ts\` in a process of its own, on free ports, against this run's DynamoDB Local and a table of its own): the local gateway; the stage's edge on a local CloudFront (\`infra/local/cloudfront/\`, started by \`startStageEdge\`, \`infra/local/stage-edge.ts\`: a distribution, a connection group whose routing endpoint is the stack's edge host name \`${edge.edgeHostname}\`, a key-value store; certificates issued and tenants deployed at once), reached through the AWS SDK clients as on AWS (SigV4A for the store); the local edge, which routes a request by its Host to the tenant serving it and runs the function, or answers CloudFront's own 403 for a host no tenant serves; and the follower of the change feed (\`followChanges\`, \`infra/local/edge-feed.ts\`), which polls the feed heads every ${edge.lag.feedIntervalMs} ms and runs \`syncHost\` for each domain event, as the sync function does on AWS from the event bus. The stack asks a DNS server on 127.0.0.1 (\`test/support/dns-server.ts\`, its \`DNS_RESOLVER\`). For each of ${edge.lag.kinds[0]?.changes ?? 0} domains: stored through the API with an index page, its TXT record and its CNAME to \`${edge.edgeHostname}\` published (the edge answers the pending domain 403, checked), then three changes through the API, each after a random pause of 0–${edge.lag.feedIntervalMs} ms so that writes do not fall at one phase of the follower's poll: **verify** (its sync writes the store entry, then creates the tenant, serving at once here), an **update** of \`index_page\`, **delete** (its sync writes the tombstone and disables the tenant; served once the edge answers **403**, CloudFront's own answer for a host no tenant serves, where before tenants it was the function's 404). From the API's answer to the write, the edge is asked every ${edge.lag.pollMs} ms (\`GET /\` with the domain as Host, keep-alive) until it answers the new state; the lag runs to that answer, so it includes up to ${edge.lag.pollMs} ms of polling granularity. A change not served within ${ms(edge.lag.giveUpMs / 1000, 0)} s would count as not served. Lags in ms.`,
    '',
    table(
      [
        'Change',
        'Edge answers',
        'Changes',
        `Served within ${ms(edge.lag.boundMs / 1000, 0)} s`,
        'Median',
        'p95',
        'Max',
        'Min',
        'API write, median',
      ],
      lagRows,
    ),
    '',
    `**CNAME published → \`active\`.** The same stack. For each of ${checkNow?.domains ?? 0} domains per path: stored and verified through the API with its TXT record alone (\`serving: waiting_for_dns\`), then left until the follower's sync of that verify had asked DNS where the name points (its queries seen at the DNS server: no CNAME, no tenant); for the re-check path, one re-check run then checked it as the schedule's runs check a waiting domain (nothing new: only its next check moved). After a random pause of 0–${activation.feedIntervalMs} ms its CNAME to \`${edge.edgeHostname}\` is published (t0), and at once:`,
    '',
    "- **check now**: the owner's `POST /domains/{id}/verify`, which finds the CNAME (its answer says `provisioning`) and records it, with its `domain.updated`;",
    `- **re-check**: a run of the re-check (\`runDueChecks\`, \`lib/domains/recheck.ts\`, with the records lookup its function builds), in the bench process against the stack's table, its clock ${intervalMin} minutes and 1 s ahead so that the domain is due, as it is ${intervalMin} minutes after its last check (\`FAST_RECHECK_INTERVAL_MS\`, a domain waiting for the edge in its first 72 hours); it finds the CNAME and records it, with its \`domain.updated\`. The stack's own timer for the re-check is set to a day, out of the way.`,
    '',
    `Then \`GET /domains/{id}\` and the edge are asked every ${activation.pollMs} ms until \`serving\` is \`active\` and the edge redirects to the index page (given up after ${giveUp}). Either way the rest is the follower's: its next poll (every ${activation.feedIntervalMs} ms), the sync (store entry unchanged, DNS checked, tenant created and read back, its certificate issued at once here), \`active\` recorded. Times in ms from t0; the trigger's own time is part of them.`,
    '',
    table(
      [
        'Path',
        'Set off by',
        'Trigger, median',
        `Active within ${giveUp}`,
        'To `active`: median',
        'p95',
        'Max',
        'Min',
        'To the edge redirecting: median / p95',
      ],
      activationRows,
    ),
    '',
    `**What AWS adds on top, not measured here.** For the re-check path, first the wait for the run that finds the CNAME: EventBridge Scheduler invokes the re-check every ${intervalMin} minutes, and a domain waiting for the edge in its first 72 hours is due ${intervalMin} minutes after its last check. ${cadence} Then, on either path, the sync is set off by the table's stream, the pipe, the event bus and its rule rather than a ${activation.feedIntervalMs} ms poll, and above all CloudFront's own work: \`CreateDistributionTenant\` checks the name's DNS with CloudFront's resolvers (which may lag: until they see the CNAME the domain stays \`waiting_for_dns\` for the next check), then CloudFront issues the managed certificate and deploys the tenant, which takes minutes, not measurable here (the local CloudFront does both at once). Until then the domain is \`provisioning\`, and each later check (a re-check run, or the owner's "check now") has the sync read the certificate again, so \`active\` is recorded at the first check after CloudFront is done.`,
    '',
    `**The sync per event.** \`syncHost\` as the sync function runs it for one event (\`create\`, \`functions/edge/sync.ts\`, wires the same parts), timed in the bench process after the stack has stopped (its follower would sync these domains too), over the stage's edge on a local CloudFront of its own: \`startStageEdge(...).edge\`, which is \`cloudFrontEdge\`: the key-value store and the tenants through the SDK clients (\`@aws-sdk/client-cloudfront-keyvaluestore\` signing with SigV4A, \`@aws-sdk/client-cloudfront\`), the DNS check through the stage's resolver (the server on 127.0.0.1). The domains are written in the same table, under an owner of their own, with the data layer the API's functions use (\`storeDomain\`, \`verifyDomain\`, \`recheckDomain\`, \`updateDomain\`, \`destroyDomain\`), and synced once after each event. Each round takes two domains: one verified by its TXT record alone (**verify, no CNAME yet**: waiting for DNS, no tenant), whose CNAME is then published and found by a re-check (**CNAME found by the re-check**: tenant created and read back); and one verified with both records (**verify with CNAME**), synced again with nothing changed, its index page updated, then deleted (its tenant disabled). After ${edge.sync.warmUp} unmeasured rounds, ${edge.sync.domains} rounds. Each part is timed apart: the DynamoDB lookup (\`activeDomainByName\`: the name guard, then the domain); the tenant's part (\`ensure\` or \`remove\`: CloudFront control-plane calls and, for a host without a tenant, the DNS check); the serving recorded when it changed (\`recordServing\`: a read, then a conditional write with its event). The rest is the store's: \`DescribeKeyValueStore\` for its ETag, \`GetKey\`, and a conditional \`PutKey\` when the entry changes. CloudFront calls are counted in the local CloudFront's log (every call, the store's and the control plane's, lookups answered 404 included); DNS queries are those for the host at the DNS server: the sync's own check and, when a tenant is created, the local CloudFront's ownership check (CloudFront's own resolvers on AWS). Times in ms.`,
    '',
    table(
      [
        'Sync after',
        'Outcome',
        'Serving after',
        'Syncs',
        'Median',
        'p95',
        'DynamoDB lookup',
        'Store',
        'Tenant (CloudFront, DNS)',
        'Serving recorded',
        'CloudFront calls',
        'DNS queries',
      ],
      syncRows,
    ),
    '',
    table(['Sync after', 'CloudFront calls', 'Which, in order'], callRows),
    '',
    'What the numbers say:',
    '',
    `- **The function** takes ${ms(fastest.medianUs, 1)}–${ms(slowest.medianUs, 1)} µs per request (medians), the slowest being ${slowest.name}: ${ms(budgetShare(edge, slowest.medianUs))} % of a ${edge.budgetMs} ms budget, ${ms(budgetUs / slowest.medianUs, 0)}× below it; the worst p99 is ${ms(worstP99.p99Us, 1)} µs (${worstP99.name}, ${ms(budgetShare(edge, worstP99.p99Us))} %). ${fastest.name} answers without reading the store; the others each do one \`get\` of a small JSON entry, and the host's normalisation (case, port, trailing dot) adds little.${throwNote} On this machine the budget leaves room for a runtime ${ms(budgetUs / slowest.medianUs, 0)} times slower; that is the indication, not a measurement of CloudFront.`,
    `- **The sync lag** medians are ${medians}, against the follower's ${edge.lag.feedIntervalMs} ms poll: a write waits for the next poll (half an interval on average, up to a whole one), then for the round itself (a Scan for the feed heads, the new events, \`syncHost\` with its CloudFront calls). ${allServed && worst.max <= edge.lag.boundMs ? `Every change was served within the issue's bound of ${ms(edge.lag.boundMs / 1000, 0)} s of its write: p95 at most ${ms(worst.p95, 0)} ms and max ${ms(worst.max, 0)} ms over the ${worst.changes} changes, ${ms(edge.lag.boundMs / Math.max(worst.max, 1), 1)}× below it.` : `**Not every change was served within the issue's bound of ${ms(edge.lag.boundMs / 1000, 0)} s**: ${worst.served} of ${worst.changes} served at all, max ${ms(worst.max, 0)} ms.`} On AWS the path is the table's stream, the pipe and its publisher, the event bus and the sync function instead of this poll; CloudFront's KeyValueStore propagates to its edge locations, and a new tenant serves only once CloudFront has issued its certificate and deployed it: this measures the local edge only, not that path.`,
    checkNow && recheck
      ? `- **CNAME → \`active\`** takes ${ms(checkNow.activeMs.median, 0)} ms (median; p95 ${ms(checkNow.activeMs.p95, 0)} ms) when the owner asks for a check, and ${ms(recheck.activeMs.median, 0)} ms (p95 ${ms(recheck.activeMs.p95, 0)} ms) from the re-check run that finds the CNAME, on this machine with CloudFront settling at once. Most of it is the follower's poll (up to ${activation.feedIntervalMs} ms); the trigger adds its own time (the verify's answer, ${ms(checkNow.triggerMs, 0)} ms; the run, ${ms(recheck.triggerMs, 0)} ms: it queries every shard of the due-check index, then looks the domain's records up and writes what it found), and the sync creating the tenant ${created ? `${ms(created.medianMs, 0)} ms` : 'a few tens of ms'}. ${redirectNote} On AWS the local part is the smallest: the wait for the run (re-check path) and CloudFront's certificate issuance and deployment (minutes) come on top, as said above.`
      : '',
    `- **The sync** takes ${syncSpread} ms per event (medians per kind) and makes ${callSpread} CloudFront calls. Every sync reads the store's ETag and the host's entry (\`DescribeKeyValueStore\`, \`GetKey\`) and looks its tenant up by domain (\`GetDistributionTenantByDomain\`); a changed entry adds a \`PutKey\`, a tenant that exists its certificate's status (\`GetManagedCertificateDetails\`), and only a host without a tenant asks DNS (${waiting ? `${ms(waiting.dnsQueries, 0)} queries: its CNAME, then its addresses when it has none` : 'its CNAME'}). ${created ? `Creating the tenant is the dearest event (${ms(created.cloudFrontCalls, 0)} calls: the lookup, \`CreateDistributionTenant\`, the tenant read back and its certificate); ` : ''}${quietSync ? `a sync with nothing to change still makes ${ms(quietSync.cloudFrontCalls, 0)} calls (${ms(quietSync.medianMs, 1)} ms here). ` : ''}Here every call is a round trip to a server on this machine; on AWS each is a round trip to CloudFront's API, and its control-plane APIs have low request rates (the sync function's client backs off adaptively when throttled), so the number of calls per event, not this local time, is what a burst of domain events costs there.`,
    `- **Reproduce** with \`BENCH_SECTIONS=edge npm run bench\` (this section alone, the others keep their figures; \`BENCH_QUICK=1\` shrinks it). Measured on ${machine.cpuModel}, ${machine.nproc} CPUs, load average ${edge.loadAverage.join(' / ')} when the section started and ${edge.loadAverageAfter.join(' / ')} when it ended; it took ${ms(edge.durationSeconds, 0)} s, the local stack's start included.`,
  ]
    .filter((line, index, lines) => line !== '' || lines[index - 1] !== '')
    .join('\n');
}
