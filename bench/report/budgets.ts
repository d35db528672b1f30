/**
 * The verdicts: each budget's target and whether the measurement meets it, for the report's "Budgets" table and
 * for the sections that restate them (which function's budget, the SDK floor, the edge's worst case, the
 * contention target's run).
 */
import type { BundleResult, BundleSection } from '#bench/bundles.ts';
import type { ContentionRun, ContentionSection } from '#bench/contention.ts';
import type { EdgeSection } from '#bench/edge.ts';
import { WRITE_FLOOR } from '#bench/handler-targets.ts';
import type { HandlerSection, OperationResult } from '#bench/handlers.ts';
import { edgeScaleBudgetRows } from '#bench/report/edge-scale.ts';
import { kb, ms, pass, plural, sizeLabel, table } from '#bench/report/format.ts';
import type { Results } from '#bench/report/results.ts';
import { lagHolds, retriesHold, worstWebhookLag } from '#bench/report/webhooks.ts';
import type { ScaleSection } from '#bench/scale.ts';

/** The scale budget: a page at the largest collection size takes at most this many times as long as at the smallest. */
export const SCALE_TARGET = 1.5;

/** A function's size budget: its own when its target has one, else the common one. */
export const budgetOf = (bundles: BundleSection, fn: BundleResult) => fn.budgetBytes ?? bundles.sizeBudgetBytes;
/** The functions whose budget is not the common one. */
export const ownBudgets = (bundles: BundleSection) =>
  bundles.functions.filter((fn) => budgetOf(bundles, fn) !== bundles.sizeBudgetBytes);

export function scaleRatio(scale: ScaleSection, operation: string) {
  const points = scale.measures.filter((m) => m.operation === operation).sort((a, b) => a.size - b.size);
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last || first === last) return null;
  return { from: first.size, to: last.size, ratio: last.latencyMs.median / first.latencyMs.median, first, last };
}

/** The edge case with the highest median time per request. */
export const slowestEdgeCase = (edge: EdgeSection) =>
  edge.function.cases.reduce((a, b) => (b.medianUs > a.medianUs ? b : a));
/** A time per request in µs as a percentage of the budget: what compute utilization would read. */
export const budgetShare = (edge: EdgeSection, us: number) => (us / (edge.budgetMs * 1000)) * 100;
/** Every kind of change together: the highest p95 and max, and how many changes were served at all. */
export const worstLag = (edge: EdgeSection) => ({
  p95: Math.max(...edge.lag.kinds.map((kind) => kind.lagMs.p95)),
  max: Math.max(...edge.lag.kinds.map((kind) => kind.lagMs.max)),
  changes: edge.lag.kinds.reduce((sum, kind) => sum + kind.changes, 0),
  served: edge.lag.kinds.reduce((sum, kind) => sum + kind.served, 0),
});

/** What the per-owner ceiling means next to the per-key limit: can one key, at its full rate, reach it? */
export function wafVerdict(ceiling: number, perKey: number): string {
  if (ceiling <= perKey) return "One key at its full rate can saturate an owner's feed on this machine.";
  const keys = Math.ceil(ceiling / perKey);
  if (ceiling < 2 * perKey) {
    return `One key at its full rate stays just below it, and ${keys} keys of one owner at their full rate exceed it.`;
  }
  return `One key at its full rate cannot reach it; it takes ${keys} keys of one owner at their full rate.`;
}

/** The configuration the issue's target is about: its writers on one owner. */
export const targetRun = (contention: ContentionSection) =>
  contention.runs.find((run) => run.shape === 'one owner' && run.writers === contention.target.writers);
/** Every successful write has its one event, the ids are 1..n, and nothing else failed. */
export const feedHolds = (run: ContentionRun) =>
  run.feed.lost === 0 && run.feed.duplicated === 0 && run.feed.gapless && run.feed.headsMatch && run.errors === 0;

export const sdkBaseline = (bundles: BundleSection) => bundles.baselines.find((b) => b.name === 'SDK client only');
export const baseline = (bundles: BundleSection, name: string) => bundles.baselines.find((b) => b.name === name);

/**
 * The functions the init budget judges: those a client's request waits for (results from before the flag judged
 * every function).
 */
export const requestPathFunctions = (bundles: BundleSection) =>
  bundles.functions.some((fn) => fn.requestPath !== undefined)
    ? bundles.functions.filter((fn) => fn.requestPath)
    : bundles.functions;

/**
 * The "SDK client only" module's own spread in the run, (max − min) ÷ median: a run whose reference spreads wider
 * than the budget's margin cannot tell a function within the margin from one over it (a loaded machine).
 */
export const initNoise = (bundles: BundleSection) => {
  const sdk = sdkBaseline(bundles);
  return sdk ? (sdk.init.max - sdk.init.min) / sdk.init.median : Number.NaN;
};
export const initResolved = (bundles: BundleSection) => initNoise(bundles) <= bundles.initBudgetRatio - 1;

/** A function's init over the "SDK client only" module's, same run. */
export const initRatio = (bundles: BundleSection, fn: BundleResult) => {
  const sdk = sdkBaseline(bundles);
  return sdk ? fn.init.median / sdk.init.median : Number.NaN;
};

/** The data layer alone, when measured (`WRITE_FLOOR` in bench/handlers.ts): the floor of a write's overhead. */
export const writeFloor = (handlers: HandlerSection) => handlers.operations.find((op) => op.name === WRITE_FLOOR);
const isWrite = (op: OperationResult) => op.calls.commands.includes('TransactWriteItems');
/**
 * An operation's overhead p99 target: the budget, or for a write the data layer's own p99 when that is higher (no
 * handler over that layer can beat it). The floor itself is not judged.
 */
export function overheadTarget(handlers: HandlerSection, op: OperationResult): number {
  const floor = writeFloor(handlers);
  if (!floor || !isWrite(op)) return handlers.overheadBudgetMs;
  return Math.max(handlers.overheadBudgetMs, floor.overheadP99.value);
}
export const judgedOperations = (handlers: HandlerSection) =>
  handlers.operations.filter((op) => op.name !== WRITE_FLOOR);

export function summarySection(results: Results): string {
  const rows: string[][] = [];
  const { bundles, handlers, scale, endToEnd, memory, contention, edge, webhooks } = results;
  if (bundles) {
    const largest = bundles.functions.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    const share = (fn: BundleResult) => fn.bytes / budgetOf(bundles, fn);
    const closest = bundles.functions.reduce((a, b) => (share(b) > share(a) ? b : a));
    const own = ownBudgets(bundles);
    const sdk = sdkBaseline(bundles);
    rows.push([
      'Bundle size per function',
      `≤ ${kb(bundles.sizeBudgetBytes)} KB${own.length > 0 ? ` (${own.map((fn) => `${fn.name} ≤ ${kb(budgetOf(bundles, fn))} KB`).join(', ')})` : ''}`,
      own.length > 0
        ? `closest to its budget: ${closest.name} ${kb(closest.bytes)} of ${kb(budgetOf(bundles, closest))} KB`
        : `largest: ${largest.name} ${kb(largest.bytes)} KB`,
      pass(bundles.functions.every((fn) => fn.bytes <= budgetOf(bundles, fn))),
    ]);
    const judged = requestPathFunctions(bundles);
    const slowest = judged.reduce((a, b) => (initRatio(bundles, b) > initRatio(bundles, a) ? b : a));
    rows.push([
      'Module init ÷ "SDK client only" (ESM), request-path functions, same run',
      `≤ ${bundles.initBudgetRatio}× (§1: the scheduled and queued functions load other SDK clients)`,
      sdk
        ? `slowest: ${slowest.name} ${ms(initRatio(bundles, slowest))}× (${ms(slowest.init.median, 1)} ÷ ${ms(sdk.init.median, 1)} ms)`
        : 'not measured',
      !sdk
        ? '—'
        : initResolved(bundles)
          ? pass(judged.every((fn) => initRatio(bundles, fn) <= bundles.initBudgetRatio))
          : `⚠️ not resolved: the reference spread ${ms(initNoise(bundles) * 100, 0)} % in this run (§1)`,
    ]);
  }
  if (handlers) {
    const judged = judgedOperations(handlers);
    const over = (op: OperationResult) => op.overheadP99.value - overheadTarget(handlers, op);
    const worst = judged.reduce((a, b) => (over(b) > over(a) ? b : a));
    const floor = writeFloor(handlers);
    rows.push([
      'Handler overhead p99 (total − DynamoDB)',
      floor
        ? `≤ ${handlers.overheadBudgetMs} ms; a write ≤ the data layer's own p99 when higher (${ms(floor.overheadP99.value, 3)} ms this run: §2)`
        : `≤ ${handlers.overheadBudgetMs} ms`,
      `worst against its target: ${worst.name} ${ms(worst.overheadP99.value, 3)} of ${ms(overheadTarget(handlers, worst), 3)} ms`,
      pass(judged.every((op) => over(op) <= 0)),
    ]);
    const off = handlers.operations.filter(
      (op) => op.calls.count !== op.target.calls || op.calls.roundTrips !== op.target.rounds,
    );
    rows.push([
      'DynamoDB round trips per operation',
      'design minimum',
      off.length === 0 ? 'all operations at the target' : `off target: ${off.map((op) => op.name).join(', ')}`,
      off.length === 0 ? '✅ pass' : '❌ over',
    ]);
  }
  if (scale) {
    for (const operation of ['first page by id', 'first page by name', 'page 50 by cursor']) {
      const r = scaleRatio(scale, operation);
      if (!r) continue;
      rows.push([
        `Scale: ${operation}`,
        `${sizeLabel(r.to)}/${sizeLabel(r.from)} ≤ ${SCALE_TARGET}`,
        `${ms(r.ratio)} (${ms(r.first.latencyMs.median)} → ${ms(r.last.latencyMs.median)} ms)`,
        pass(r.ratio <= SCALE_TARGET),
      ]);
    }
  }
  if (endToEnd) {
    for (const op of endToEnd.operations) {
      // Re-derived once the HTTP floor is measured: bare DynamoDB calls have no HTTP hop, which ours cannot shed (§5).
      if (op.overFloor && op.floorRatio) {
        rows.push([
          `End to end: ${op.operation} (ours ÷ the HTTP floor, p50)`,
          `≤ ${endToEnd.target}× (was ÷ bare DynamoDB; the hop alone is ${ms(op.floorRatio.p50.median)}× bare: §5)`,
          `${ms(op.overFloor.p50.median)}× (p99 ${ms(op.overFloor.p99.median)}×; ÷ bare ${ms(op.ratio.p50.median)}×)`,
          pass(op.overFloor.p50.median <= endToEnd.target),
        ]);
        continue;
      }
      rows.push([
        `End to end: ${op.operation} (ours ÷ bare DynamoDB, p50)`,
        `≤ ${endToEnd.target}×`,
        `${ms(op.ratio.p50.median)}× (p99 ${ms(op.ratio.p99.median)}×, time/request ${ms(op.ratio.timePerRequest.median)}×)`,
        pass(op.ratio.p50.median <= endToEnd.target),
      ]);
    }
  }
  if (memory) {
    const peak = Math.max(...memory.functions.map((f) => f.peakRssMb));
    const configured = results.lambda.memorySizeMb;
    rows.push([
      'Peak RSS of a warm function',
      configured ? `< ${configured} MB configured` : 'fits the memory size',
      `${ms(peak, 1)} MB`,
      configured ? pass(peak < configured) : '—',
    ]);
  }
  const target = contention && targetRun(contention);
  if (contention && target) {
    rows.push([
      `Contention: ${plural(target.writers, 'writer')} on one owner, change feed`,
      '0 lost, 0 duplicated',
      `${target.feed.lost} lost, ${target.feed.duplicated} duplicated of ${target.feed.events} events`,
      pass(feedHolds(target)),
    ]);
    rows.push([
      `Contention: ${plural(target.writers, 'writer')} on one owner, 503 rate`,
      `≤ ${contention.target.maxRate503} %`,
      `${ms(target.rate503)} % (${target.contended} of ${target.requests} writes)`,
      pass(target.rate503 <= contention.target.maxRate503),
    ]);
  }
  if (edge) {
    const slowest = slowestEdgeCase(edge);
    const worstP99 = edge.function.cases.reduce((a, b) => (b.p99Us > a.p99Us ? b : a));
    rows.push([
      'Edge function time per request (slowest case, median)',
      `≤ ${edge.budgetMs} ms, assumed (AWS states compute utilization, not a time: §8)`,
      `${ms(slowest.medianUs, 1)} µs = ${ms(budgetShare(edge, slowest.medianUs))} % of it (${slowest.name}); worst p99 ${ms(worstP99.p99Us, 1)} µs; sandbox on this machine`,
      pass(slowest.medianUs <= edge.budgetMs * 1000),
    ]);
    const worst = worstLag(edge);
    rows.push([
      'Edge sync lag, API write to the local edge serving it',
      `≤ ${ms(edge.lag.boundMs / 1000, 0)} s`,
      `p95 ${ms(worst.p95, 0)} ms, max ${ms(worst.max, 0)} ms over ${worst.changes} changes (${worst.served} served)`,
      pass(worst.served === worst.changes && worst.max <= edge.lag.boundMs),
    ]);
  }
  if (webhooks) {
    const worst = worstWebhookLag(webhooks);
    rows.push([
      "Webhook delivery lag, API write to the receiver's 2xx (local stack, 1 and 20 endpoints)",
      `p95 ≤ ${ms(webhooks.lagBoundMs / 1000, 0)} s, 0 lost`,
      `p95 ${ms(worst.p95, 0)} ms, max ${ms(worst.max, 0)} ms; ${worst.lost} lost of ${worst.expected} (follower polls every ${webhooks.feedIntervalMs} ms: §9)`,
      pass(lagHolds(webhooks)),
    ]);
    rows.push([
      'Webhooks: write latency with 20 endpoints ÷ 0 (median, same run)',
      `≤ ${webhooks.writeRatioTarget}×`,
      `${ms(webhooks.writeRatio.median)}× (p95 ${ms(webhooks.writeRatio.p95)}×)`,
      pass(webhooks.writeRatio.median <= webhooks.writeRatioTarget),
    ]);
    rows.push([
      `Webhook retries, receiver failing the first ${webhooks.retry.failFirst} attempts`,
      '0 lost',
      `${webhooks.retry.delivered} of ${webhooks.retry.events} delivered, ${webhooks.retry.lost} lost; last ${ms(webhooks.retry.lastDeliveryAfterLastWriteMs / 1000, 1)} s after the last write`,
      pass(retriesHold(webhooks)),
    ]);
  }
  if (results.edgeScale) rows.push(...edgeScaleBudgetRows(results.edgeScale));
  return table(['Budget', 'Target', 'Measured', 'Status'], rows);
}
