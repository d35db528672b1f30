/** Sections 2, 2a and 3 of the report: handler overhead, capacity units before and after, round trips. */
import { WRITE_FLOOR } from '#bench/handler-targets.ts';
import type { HandlerSection } from '#bench/handlers.ts';
import { overheadTarget, writeFloor } from '#bench/report/budgets.ts';
import { ms, pass, plural, range, table } from '#bench/report/format.ts';
import type { Baseline } from '#bench/report/results.ts';

export function handlerSection(handlers: HandlerSection): string {
  const rows = handlers.operations.map((op) => [
    op.name,
    range(op.totalP50),
    range(op.dynamoP50),
    range(op.overheadP50, 3),
    range(op.overheadP99, 3),
    range(op.sdkClientP50, 3),
    `${(op.overheadShareP50 * 100).toFixed(1)} %`,
    op.name === WRITE_FLOOR ? 'the floor' : pass(op.overheadP99.value <= overheadTarget(handlers, op)),
  ]);
  const floor = writeFloor(handlers);
  return [
    '## 2. Handler overhead',
    '',
    `Each handler runs in-process (from the source, as the local gateway loads it) on realistic API Gateway REST v1 proxy events (CloudFront-style headers, \`requestContext.authorizer.ownerId\`), ${handlers.invocations.toLocaleString('en-US')} measured invocations per operation after ${handlers.warmup} warm-up ones, sequentially, against DynamoDB Local. A timing middleware on the shared \`db\` client (first in the \`initialize\` step) measures the wall time during which a DynamoDB call is in flight (parallel calls counted once); **overhead = total − DynamoDB**, which is middy, parsing, validation, cursor signing, the response envelope and JSON. "SDK client side" is the part of the DynamoDB time spent in the SDK on our side of the wire (marshalling, signing, parsing; a second middleware wraps the HTTP exchange itself), reported for information and not counted as overhead. Figures are percentiles over all measured invocations, with [min–max] over ${handlers.blocks} consecutive blocks of them.`,
    '',
    table(
      [
        'Operation',
        'Total p50 ms',
        'DynamoDB p50 ms',
        'Overhead p50 ms',
        'Overhead p99 ms',
        'SDK client side p50 ms',
        'Overhead share of p50',
        `p99 ≤ ${handlers.overheadBudgetMs} ms${floor ? ' (a write: or its floor)' : ''}`,
      ],
      rows,
    ),
    ...(floor
      ? [
          '',
          `**The floor of a write.** "${WRITE_FLOOR}" is \`storeSpace\` called on the data layer with no handler around it, timed by the same harness: the ticket and the id, then the transaction with the item, its guard and its event, which every write of the change feed makes. Its overhead p99 is ${ms(floor.overheadP99.value, 3)} ms [${ms(floor.overheadP99.min, 3)}–${ms(floor.overheadP99.max, 3)}] (p50 ${ms(floor.overheadP50.value, 3)} ms): the data layer's own work between and around its calls, and the tail every write carries here (garbage collection, the event loop). No handler over that layer can have less, so a write's p99 is held to ${handlers.overheadBudgetMs} ms or to that floor, whichever is higher; a read to ${handlers.overheadBudgetMs} ms.`,
        ]
      : []),
  ].join('\n');
}

export function roundTripSection(handlers: HandlerSection): string {
  const rows = handlers.operations.map((op) => [
    op.name,
    op.calls.commands.join(' + '),
    op.calls.min === op.calls.max ? op.calls.count : `${op.calls.count} (${op.calls.min}–${op.calls.max})`,
    op.calls.roundTrips,
    `${plural(op.target.calls, 'call')} / ${plural(op.target.rounds, 'round trip')}`,
    op.calls.count === op.target.calls && op.calls.roundTrips === op.target.rounds ? '✅' : '❌',
    op.target.reason,
  ]);
  return [
    '## 3. DynamoDB round trips per operation',
    '',
    'Counted with SDK middleware on every measured invocation of section 2. A round trip is a call that starts while no other call is in flight: calls issued in parallel share one round trip of latency. `test/perf/round-trips.test.ts` pins these counts in `npm test`.',
    '',
    table(
      ['Operation', 'Calls', 'Count', 'Round trips', 'Design target', 'At target', 'Why this is the minimum'],
      rows,
    ),
  ].join('\n');
}

export function costSection(handlers: HandlerSection, baseline: Baseline | undefined): string {
  const before = new Map((baseline?.operations ?? []).map((op) => [op.name, op]));
  const arrow = (a: number | undefined, b: number, digits = 0) =>
    a === undefined ? `— → ${ms(b, digits)}` : `${ms(a, digits)} → ${ms(b, digits)}`;
  const rows = handlers.operations
    .filter((op) => op.name !== 'authorizer')
    .map((op) => {
      const old = before.get(op.name);
      const added = old ? ms(op.totalP50.value - old.totalP50, 1) : 'new';
      return [
        op.name,
        arrow(old?.capacity.write, op.capacity.write),
        arrow(old?.capacity.read, op.capacity.read),
        arrow(old?.totalP50, op.totalP50.value, 1),
        arrow(old?.totalP99, op.totalP99.value, 1),
        added,
      ];
    });
  const source = baseline
    ? `**Before** is commit \`${baseline.commit}\` (before the change feed, idempotency keys and versions), measured ${baseline.measuredAt.slice(0, 16).replace('T', ' ')} UTC with this very harness${baseline.quick ? ' (quick run)' : ''}: ${baseline.how}`
    : 'No baseline file (`bench/baselines/before-change-feed.json`): only the figures after.';
  return [
    '## 2a. Capacity units and latency per operation, before and after the change feed',
    '',
    `Capacity units per invocation (median) by DynamoDB's on-demand pricing rules, counted from each call's request and answer by the recorder (\`infra/local/dynamodb-recorder.ts\`): a strongly consistent read 1 unit per 4 KB, a write 1 per KB, **a transaction 2 per item per KB**; DynamoDB Local's own ConsumedCapacity is not used (it reports 2 for any transaction of small items). Every item here is under 1 KB. Latency is the handler's total p50/p99 of section 2, in ms; both runs on this machine against DynamoDB Local, so the added latency is about one more DynamoDB round trip where the design adds one, and noise otherwise. ${source}`,
    '',
    table(['Operation', 'Write units', 'Read units', 'Total p50 ms', 'Total p99 ms', 'Added p50 ms'], rows),
    '',
    'Where the units go: every change now writes its event (2 units in the transaction) and moves the event sequence (2), and takes its ticket (1, an UpdateItem in the first round trip); a store with an `Idempotency-Key` also reads the key (1 read unit) and writes its record (2). An update was one conditional UpdateItem (1 unit, 1 round trip) and is now a read of the item in parallel with the ticket, then a transaction of the item, the event and the sequence (7 units, 2 round trips): the event carries the whole resource after the change, which a transaction cannot return. Shows, lists and the authorizer are unchanged; `If-None-Match` costs nothing more (the same GetItem).',
  ].join('\n');
}
