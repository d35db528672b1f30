/**
 * The report's verdicts on the budgets of issue 34 (bench/report/budgets.ts): the init budget judges the
 * request-path functions and only a run that can resolve its margin; a write's overhead p99 is held to the data
 * layer's own floor when that is higher; end to end compares with the HTTP floor once it is measured. A verdict
 * that passes what it should fail would publish a budget met for nothing. And bench/ keeps one module per
 * measurement: no file over 400 lines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BundleResult, BundleSection } from '#bench/bundles.ts';
import type { EndToEndSection } from '#bench/e2e.ts';
import { WRITE_FLOOR } from '#bench/handler-targets.ts';
import type { HandlerSection, OperationResult } from '#bench/handlers.ts';
import { initResolved, overheadTarget, requestPathFunctions, summarySection } from '#bench/report/budgets.ts';
import type { Results } from '#bench/report/results.ts';
import { projectRoot } from '#infra/bundling.ts';

const summary = (median: number, min = median, max = median) => ({ median, min, max, n: 12 });
const fn = (name: string, initMs: number, requestPath: boolean) =>
  ({ name, bytes: 200_000, init: summary(initMs), requestPath }) as unknown as BundleResult;
const bundles = (functions: BundleResult[], sdk = summary(15, 14.5, 15.7)) =>
  ({
    sizeBudgetBytes: 250_000,
    initBudgetRatio: 1.1,
    functions,
    baselines: [{ name: 'SDK client only', description: '', bytes: 190_000, init: sdk }],
  }) as unknown as BundleSection;
const spread = (value: number) => ({ value, min: value, max: value });
const op = (name: string, p99: number, commands: string[]) =>
  ({
    name,
    overheadP99: spread(p99),
    overheadP50: spread(p99 / 3),
    calls: { commands, count: commands.length, min: 0, max: 0, roundTrips: 1 },
    target: { calls: commands.length, rounds: 1, reason: '' },
  }) as unknown as OperationResult;
const handlers = (operations: OperationResult[]) =>
  ({ invocations: 500, warmup: 200, blocks: 4, overheadBudgetMs: 1, operations }) as HandlerSection;
const statusOf = (results: Partial<Results>, budget: string) =>
  summarySection(results as Results)
    .split('\n')
    .find((row) => row.startsWith(`| ${budget}`))
    ?.split(' | ')
    .at(-1);
const WRITE = ['UpdateItem', 'UpdateItem', 'TransactWriteItems'];

describe('the init budget', () => {
  it('judges only the functions a request waits for', () => {
    // Prepare
    const section = bundles([fn('show-space', 16, true), fn('edge-sync', 36, false)]);
    // Act
    const judged = requestPathFunctions(section).map((f) => f.name);
    // Assess
    expect(judged).toEqual(['show-space']);
    expect(statusOf({ bundles: section }, 'Module init')).toBe('✅ pass |');
  });

  it('fails a request-path function above 1.10x the SDK-only module of the same run', () => {
    // Act
    const status = statusOf({ bundles: bundles([fn('store-webhook', 18.2, true)]) }, 'Module init');
    // Assess
    expect(status).toBe('❌ over |');
  });

  it('judges nothing when the reference itself spread wider than the margin (a loaded machine)', () => {
    // Prepare
    const section = bundles([fn('store-webhook', 18.2, true)], summary(126.7, 18.4, 412.9));
    // Act
    const status = statusOf({ bundles: section }, 'Module init');
    // Assess
    expect(initResolved(section)).toBe(false);
    expect(status).toMatch(/^⚠️ not resolved/);
  });
});

describe('the handler overhead budget', () => {
  it("holds a write to the data layer's own p99 when that is above 1 ms, and a read to 1 ms", () => {
    // Prepare
    const section = handlers([
      op(WRITE_FLOOR, 1.4, WRITE),
      op('store-space', 1.3, WRITE),
      op('show-space', 1.2, ['GetItem']),
    ]);
    // Act
    const [, write, read] = section.operations.map((o) => overheadTarget(section, o));
    // Assess
    expect(write).toBe(1.4);
    expect(read).toBe(1);
    expect(statusOf({ handlers: section }, 'Handler overhead')).toBe('❌ over |');
  });

  it('passes a write under its floor, and holds it to 1 ms when the floor is below', () => {
    // Prepare
    const above = handlers([op(WRITE_FLOOR, 1.4, WRITE), op('store-space', 1.3, WRITE)]);
    const below = handlers([op(WRITE_FLOOR, 0.6, WRITE), op('store-space', 1.3, WRITE)]);
    const none = handlers([op('store-space', 1.3, WRITE)]);
    // Assess
    expect(statusOf({ handlers: above }, 'Handler overhead')).toBe('✅ pass |');
    expect(statusOf({ handlers: below }, 'Handler overhead')).toBe('❌ over |');
    expect(statusOf({ handlers: none }, 'Handler overhead')).toBe('❌ over |');
  });
});

describe('the end-to-end budget', () => {
  const e2e = (floor: boolean) =>
    ({
      target: 1.3,
      operations: [
        {
          operation: 'show',
          ratio: { p50: summary(1.75), p99: summary(1.5), timePerRequest: summary(1.5) },
          ...(floor ? { floorRatio: { p50: summary(1.5), p99: summary(1.3) } } : {}),
          ...(floor ? { overFloor: { p50: summary(1.17), p99: summary(1.15) } } : {}),
        },
      ],
    }) as unknown as EndToEndSection;

  it('compares ours with the HTTP floor once it is measured, with the hop written beside it', () => {
    // Act
    const table = summarySection({ endToEnd: e2e(true) } as Results);
    // Assess
    expect(table).toContain('ours ÷ the HTTP floor');
    expect(table).toContain('the hop alone is 1.50× bare');
    expect(statusOf({ endToEnd: e2e(true) }, 'End to end: show')).toBe('✅ pass |');
  });

  it('keeps the comparison with bare DynamoDB for results without the floor', () => {
    // Assess
    expect(statusOf({ endToEnd: e2e(false) }, 'End to end: show')).toBe('❌ over |');
  });
});

describe('bench/', () => {
  it('has no file over 400 lines: one module per measurement, over shared helpers', () => {
    // Prepare
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? entry.name === 'results' || entry.name === 'baselines'
            ? []
            : files(join(dir, entry.name))
          : entry.name.endsWith('.ts')
            ? [join(dir, entry.name)]
            : [],
      );
    // Act
    const long = files(join(projectRoot, 'bench'))
      .map((file) => ({ file: relative(projectRoot, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > 400);
    // Assess
    expect(long).toEqual([]);
  });
});
