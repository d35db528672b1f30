/** Section 9 of the report: webhook delivery lag, the write latency with endpoints subscribed, retries. */
import { ms, plural, table } from '#bench/report/format.ts';
import type { Machine } from '#bench/support.ts';
import type { WebhookLagCase, WebhookSpread, WebhooksSection } from '#bench/webhooks.ts';

/** The highest lag p95 and max over every delivery, and whether every delivery came. */
export const worstWebhookLag = (webhooks: WebhooksSection) => ({
  p95: Math.max(...webhooks.lag.map((c) => c.lagMs.p95)),
  max: Math.max(...webhooks.lag.map((c) => c.lagMs.max)),
  expected: webhooks.lag.reduce((sum, c) => sum + c.expected, 0),
  lost: webhooks.lag.reduce((sum, c) => sum + c.lost, 0),
  badSignatures: webhooks.lag.reduce((sum, c) => sum + c.badSignatures, 0),
});

/** Every delivery came, verified, and the p95 is within the bound. */
export const lagHolds = (webhooks: WebhooksSection) => {
  const worst = worstWebhookLag(webhooks);
  return worst.lost === 0 && worst.badSignatures === 0 && worst.p95 <= webhooks.lagBoundMs;
};

export const retriesHold = (webhooks: WebhooksSection) =>
  webhooks.retry.lost === 0 && webhooks.retry.badSignatures === 0;

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

const medianP95 = (spread: WebhookSpread, digits = 0) => `${ms(spread.median, digits)} / ${ms(spread.p95, digits)}`;

export function webhooksSection(webhooks: WebhooksSection, machine: Machine): string {
  const { retry } = webhooks;
  const interval = webhooks.feedIntervalMs;
  const lagRows = webhooks.lag.map((c) => [
    c.endpoints,
    c.writes,
    `${c.delivered} of ${c.expected}`,
    c.lost,
    c.badSignatures,
    ms(c.lagMs.median, 0),
    ms(c.lagMs.p95, 0),
    ms(c.lagMs.max, 0),
    ms(c.lagMs.min, 0),
    medianP95(c.lastOfWriteMs),
    medianP95(c.pickupMs),
    medianP95(c.deliverMs, 1),
  ]);
  const zero = webhooks.writes.find((c) => c.endpoints === 0);
  const writeRows = webhooks.writes.map((c) => [
    c.endpoints,
    c.writes,
    ms(c.latencyMs.median),
    ms(c.latencyMs.p95),
    ms(c.latencyMs.min),
    ms(c.latencyMs.max),
    zero ? `${ms(c.latencyMs.median / zero.latencyMs.median)}×` : '—',
    zero ? `${ms(c.latencyMs.p95 / zero.latencyMs.p95)}×` : '—',
  ]);
  const [gap1, gap2] = retry.retryGapMs;
  const retryRows = [
    ['Schedule (`WEBHOOK_RETRY_DELAYS`)', `\`${retry.delays}\`, each delay ±${ms(retry.jitterRatio * 100, 0)} %`],
    ['The receiver answers', `500 to the first ${retry.failFirst} attempts of each event, then 204 once verified`],
    ['Events written', retry.events],
    ['Delivered, verified', `${retry.delivered} of ${retry.events}`],
    ['Lost', retry.lost],
    ['Bad signatures', retry.badSignatures],
    ['Duplicates', retry.duplicates],
    ['Attempts per event', retry.attemptsPerEvent.join(', ')],
    ['201 → first attempt: median / p95', medianP95(retry.firstAttemptMs)],
    ['Attempt 1 → attempt 2: median / p95', gap1 ? medianP95(gap1) : '—'],
    ['Attempt 2 → attempt 3: median / p95', gap2 ? medianP95(gap2) : '—'],
    [
      '201 → delivered: median / p95 / max',
      `${medianP95(retry.deliveredAfterWriteMs)} / ${ms(retry.deliveredAfterWriteMs.max, 0)}`,
    ],
    ["The schedule's part of that", `${ms(retry.scheduleMs.min, 0)}–${ms(retry.scheduleMs.max, 0)}`],
    [
      'Last delivery after the last 201 (after the first)',
      `${ms(retry.lastDeliveryAfterLastWriteMs, 0)} (${ms(retry.lastDeliveryAfterFirstWriteMs, 0)})`,
    ],
  ];

  const one = webhooks.lag.find((c) => c.endpoints === 1);
  const many = webhooks.lag.reduce((a, b) => (b.endpoints > a.endpoints ? b : a));
  const share = (c: WebhookLagCase) => ms((100 * c.pickupMs.median) / c.lagMs.median, 0);
  const worst = worstWebhookLag(webhooks);
  const twenty = webhooks.writes.find((c) => c.endpoints === many.endpoints);
  const ratioOk = webhooks.writeRatio.median <= webhooks.writeRatioTarget;
  const lagLine = (c: WebhookLagCase) =>
    `${plural(c.endpoints, 'endpoint')}: median ${ms(c.lagMs.median, 0)} ms, p95 ${ms(c.lagMs.p95, 0)} ms, of which the wait for the follower is ${ms(c.pickupMs.median, 0)} ms (median, ${share(c)} % of the median lag) and the delivery itself ${ms(c.deliverMs.median, 1)} ms`;

  return [
    '## 9. Webhooks',
    '',
    `The local stack as \`npm start\` composes it (\`infra/local/start.ts\`), in the bench process: the local gateway (authorizer answers cached ${webhooks.authCacheTtlSeconds} s, as \`npm start\` does), the webhook worker (\`startWebhookWorker\`, \`infra/local/webhook-worker.ts\`: the fan-out of \`lib/webhooks/dispatch.ts\`, each attempt reading the webhook, POSTing the signed event and recording the attempt) and the follower of the change feed handing it every event (\`followChanges\`, \`infra/local/edge-feed.ts\`, polling the feed heads **every ${interval} ms**; no edge: the writes are spaces, the edge syncs domains only). DynamoDB Local of this run, with a table of its own; \`WEBHOOK_LOCAL_LOOPBACK=true\` as \`npm start\` sets it, \`WEBHOOK_RETRY_DELAYS=${retry.delays}\`, \`MAX_WEBHOOKS_PER_OWNER=${webhooks.maxWebhooksPerOwner}\` (the default quota is 10). Each webhook is subscribed to \`space.*\` and has its own receiver, an HTTP server on 127.0.0.1 in the same process, which checks every delivery's signature with the \`standardwebhooks\` package against the secret the store answered: a delivery that does not verify is answered 401 and counts as lost.`,
    '',
    `**Delivery lag and write latency.** Three owners: 0, 1 and ${many.endpoints} webhooks. Each round writes one space for each (\`POST /api/v1/spaces\`, 201) in an order rotated every round; each write comes after a pause of 0–${webhooks.pauseMaxMs} ms (for each owner, one pause in each of ${webhooks.rounds} equal slices of that range, in random order, so that its writes fall evenly over the phases of the follower's poll) and only once the previous write's deliveries have all come and the worker is idle (the attempts record themselves after the receiver's answer), so every write meets the same quiet stack. ${webhooks.rounds} rounds after ${webhooks.warmUpRounds} unmeasured. The lag runs from the 201 reaching the client to the receiver answering 2xx, split at the moment the follower hands the event to the worker; a delivery not in within ${ms(webhooks.giveUpMs / 1000, 0)} s would count as lost. Times in ms.`,
    '',
    table(
      [
        'Endpoints',
        'Writes',
        'Delivered, verified',
        'Lost',
        'Bad signatures',
        '201 → 2xx: median',
        'p95',
        'Max',
        'Min',
        "Last of the write's endpoints: median / p95",
        '201 → follower hands it over: median / p95',
        'Hand-over → 2xx: median / p95',
      ],
      lagRows,
    ),
    '',
    `Write latency of the same writes, from the request to the 201 read, ms; the ratios to 0 endpoints are of the same run (target for the median: **≤ ${webhooks.writeRatioTarget}×**, delivery being off the request path):`,
    '',
    table(['Endpoints subscribed', 'Writes', 'Median', 'p95', 'Min', 'Max', 'Median ÷ 0', 'p95 ÷ 0'], writeRows),
    '',
    `**Retries.** One more owner, with one webhook whose receiver answers 500 to the first ${retry.failFirst} attempts of each event (counted by \`webhook-id\`, stable across an event's retries) and verifies and answers 204 from the next. ${retry.events} spaces written back to back (in ${ms(retry.writeSpanMs, 0)} ms, the first events' attempts running alongside), then waited for. The schedule's part of an event's wait runs from the ${retry.failFirst} delays at their shortest jitter to a whole poll of the follower plus the delays at their longest; the attempts' own time comes on top. Times in ms.`,
    '',
    table(['Retries', 'Measured'], retryRows),
    '',
    'What the numbers say:',
    '',
    `- **The lag is the follower's poll.** ${one ? `${lagLine(one)}; ` : ''}${lagLine(many)}. A write waits for the follower's next poll, every ${interval} ms: ${ms(interval / 2, 0)} ms on average and up to ${interval} ms, which is most of the lag at the median and nearly all of its spread; the poll itself (a Scan for the feed heads, then each owner's new events) adds a little. ${many.endpoints} endpoints cost the fan-out more: the attempts start together, each reading its webhook and recording itself in DynamoDB Local on the same ${machine.nproc} CPUs, so the last of a write's ${many.endpoints} deliveries comes ${ms(many.lastOfWriteMs.median, 0)} ms after the 201 (median; p95 ${ms(many.lastOfWriteMs.p95, 0)} ms). ${worst.lost === 0 && worst.badSignatures === 0 ? `All ${worst.expected} deliveries came and verified` : `**${worst.lost} of ${worst.expected} deliveries were lost** (${worst.badSignatures} with a bad signature)`}; ${worst.p95 <= webhooks.lagBoundMs ? `the p95 (${ms(worst.p95, 0)} ms at most) and the max (${ms(worst.max, 0)} ms) are within the issue's "about a second" of the write.` : `**the p95 (${ms(worst.p95, 0)} ms) is above the issue's "about a second"** (max ${ms(worst.max, 0)} ms).`} A shorter poll would shorten it at the cost of more Scans; on AWS there is no poll: the table's stream, the pipe and the event bus hand the event to the fan-out function, and SQS to the delivery function, a path not measured here.`,
    twenty && zero
      ? `- **The write latency ${ratioOk ? 'does not change' : 'changes'} with endpoints subscribed**: median ${ms(zero.latencyMs.median)} ms with none and ${ms(twenty.latencyMs.median)} ms with ${twenty.endpoints}, ${ms(webhooks.writeRatio.median)}× (${ratioOk ? 'within' : '**above**'} the target of ${webhooks.writeRatioTarget}×); p95 ${ms(zero.latencyMs.p95)} and ${ms(twenty.latencyMs.p95)} ms, ${ms(webhooks.writeRatio.p95)}× (a p95 of ${zero.writes} writes is their ${ordinal(zero.writes - Math.ceil(0.95 * zero.writes) + 1)} slowest: noisier than the median). The write stores the space and its event as it does without webhooks, and nothing on the request path reads the webhooks: the follower finds the event after the 201. On the local stack the deliveries run in the same process as the gateway, so a write that falls while ${many.endpoints} attempts are in flight shares the CPUs with them; here every write met an idle worker, so the comparison is of the request path alone.`
      : '',
    `- **Retries ${retriesHold(webhooks) ? 'deliver every event' : '**lost events**'}**: ${retry.delivered} of ${retry.events} delivered and verified, ${retry.lost} lost, ${retry.duplicates} duplicated, each after ${retry.attemptsPerEvent.join(' or ')} attempts. The attempts came ${gap1 ? ms(gap1.median, 0) : '?'} and ${gap2 ? ms(gap2.median, 0) : '?'} ms apart (medians): the schedule's ${ms((retry.delaysMs[0] ?? 0) / 1000, 0)} s with its ±${ms(retry.jitterRatio * 100, 0)} % jitter, plus each attempt's own time (the failed attempt recording itself, then the next one reading the webhook again before it POSTs: DynamoDB Local calls, ${retry.events} events at once, in the process that also serves the writes). Each event was delivered ${ms(retry.deliveredAfterWriteMs.median, 0)} ms after its 201 (median; max ${ms(retry.deliveredAfterWriteMs.max, 0)} ms), of which the schedule accounts for ${ms(retry.scheduleMs.min, 0)}–${ms(retry.scheduleMs.max, 0)} ms; the last delivery came ${ms(retry.lastDeliveryAfterLastWriteMs, 0)} ms after the last write's 201 and ${ms(retry.lastDeliveryAfterFirstWriteMs, 0)} ms after the first's. The local worker waits for retries on timers and keeps each event's next attempt in the table: a restart of \`npm start\`, even after a kill, makes them (on AWS they wait in SQS).`,
    `- **Reproduce** with \`BENCH_SECTIONS=webhooks npm run bench\` (this section alone, the others keep their figures; \`BENCH_QUICK=1\` shrinks it). Measured on ${machine.cpuModel}, ${machine.nproc} CPUs, Node ${webhooks.node}, load average ${webhooks.loadAverage.join(' / ')} when the section started and ${webhooks.loadAverageAfter.join(' / ')} when it ended; it took ${ms(webhooks.durationSeconds, 0)} s.`,
  ]
    .filter((line, index, lines) => line !== '' || lines[index - 1] !== '')
    .join('\n');
}
