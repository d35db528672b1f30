/** Section 5 of the report: end to end through the local gateway, against bare DynamoDB calls. */
import type { EndToEndSection } from '#bench/e2e.ts';
import { ms, range, table } from '#bench/report/format.ts';

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
    `The gateway process peaked at ${ms(e2e.gatewayMaxRssMb, 1)} MB RSS (all handlers loaded from source through tsx).`,
  ].join('\n');
}
