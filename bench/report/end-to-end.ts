/** Section 5 of the report: end to end through the local gateway, against bare DynamoDB calls. */
import type { EndToEndResult, EndToEndSection } from '#bench/e2e.ts';
import { ms, range, table } from '#bench/report/format.ts';

/** The HTTP floor: the bare calls behind a bare HTTP server, and what the budget compares ours with. */
function floorPart(e2e: EndToEndSection): string[] {
  type Measured = EndToEndResult & Required<Pick<EndToEndResult, 'floor' | 'floorRatio' | 'overFloor'>>;
  const measured = e2e.operations.filter((op): op is Measured => !!(op.floor && op.floorRatio && op.overFloor));
  if (measured.length === 0) return [];
  const rows = measured.map((op) => [
    op.operation,
    range(op.floor.rps, 0),
    range(op.floor.p50),
    `${range(op.floorRatio.p50)}×`,
    `${range(op.overFloor.p50)}×`,
    `${range(op.overFloor.p99)}×`,
  ]);
  const hop = measured.map((op) => `${op.operation} ${ms(op.floorRatio.p50.median)}×`).join(', ');
  return [
    `**The HTTP floor.** The bare script times its calls in-process; ours is timed by autocannon across an HTTP hop to another process. The same calls behind a bare \`node:http\` server in its own process (\`bench/e2e-floor.ts\`: no gateway, no event, no handler), under the same load right after the bare run, measure that hop alone: the floor ÷ bare is ${hop} (p50). No HTTP API over DynamoDB can beat it, and API Gateway puts a hop in front of every deployed function, so the budget compares ours with the floor: **ours ÷ the HTTP floor ≤ ${e2e.target}×** (p50, per run). The cheaper the calls (show is one GetItem), the more of the ratio to bare is the hop.`,
    '',
    table(
      ['Operation', 'Floor req/s', 'Floor p50 ms', 'Floor ÷ bare, p50', 'Ours ÷ floor, p50', 'Ours ÷ floor, p99'],
      rows,
    ),
    '',
  ];
}

export function endToEndSection(e2e: EndToEndSection): string {
  const rows = e2e.operations.map((op) => [
    op.operation,
    range(op.ours.rps, 0),
    range(op.ours.p50),
    range(op.ours.p99),
    range(op.bare.rps, 0),
    range(op.bare.p50),
    range(op.bare.p99),
    `${range(op.ratio.p50)}×`,
    `${range(op.ratio.p99)}×`,
    `${range(op.ratio.timePerRequest)}×`,
  ]);
  return [
    '## 5. End to end',
    '',
    `The local gateway (\`startGateway\`, its own process, 127.0.0.1 on a free port; authorizer answers cached ${e2e.authCacheTtlSeconds} s as API Gateway is configured to) under autocannon, ${e2e.connections} connections for ${e2e.seconds} s per run, against a "bare" script in its own process issuing the same DynamoDB calls (show: GetItem; list: Query + counter GetItem in parallel) with the same client configuration and concurrency for the same time. The two alternate, ${e2e.repeats} time(s) each after a warm-up; figures are medians [min–max] and ratios are computed per run. Ours includes the HTTP hop, the gateway's event building and the handler; the target is **≤ ${e2e.target}×**.`,
    '',
    table(
      [
        'Operation',
        'Ours req/s',
        'Ours p50 ms',
        'Ours p99 ms',
        'Bare req/s',
        'Bare p50 ms',
        'Bare p99 ms',
        'p50 ratio',
        'p99 ratio',
        'Time/request ratio',
      ],
      rows,
    ),
    '',
    ...floorPart(e2e),
    `The gateway process peaked at ${ms(e2e.gatewayMaxRssMb, 1)} MB RSS (all handlers loaded from source through tsx).`,
  ].join('\n');
}
