/** The shape of bench/results/latest.json: what each section measured, and what the report is rendered from. */
import type { BundleSection } from '#bench/bundles.ts';
import type { ContentionSection } from '#bench/contention.ts';
import type { EndToEndSection } from '#bench/e2e.ts';
import type { EdgeScaleSection } from '#bench/edge/scale.ts';
import type { EdgeSection } from '#bench/edge.ts';
import type { HandlerSection } from '#bench/handlers.ts';
import type { MemorySection } from '#bench/memory.ts';
import type { ScaleSection } from '#bench/scale.ts';
import type { Machine } from '#bench/support.ts';
import type { WebhooksSection } from '#bench/webhooks.ts';

export type LambdaSettings = {
  /** From infra/stages.ts, when the stack defines it. */
  memorySizeMb: number | null;
  authorizerCacheTtlSeconds: number | null;
  source: string;
};

/**
 * The handlers section measured on the code before the change feed (commit `commit`), with the same harness:
 * the "before" of the capacity and latency comparison (`bench/baselines/before-change-feed.json`).
 */
export type Baseline = {
  commit: string;
  measuredAt: string;
  quick: boolean;
  how: string;
  operations: { name: string; capacity: { write: number; read: number }; totalP50: number; totalP99: number }[];
};

export type Results = {
  generatedAt: string;
  /** When each section's figures were measured (a partial run keeps the others' previous figures). */
  measuredAt: Partial<Record<SectionName, string>>;
  /** The machine each section was measured on (a partial run keeps the others'; absent: `machine`). */
  measuredOn?: Partial<Record<SectionName, Machine>>;
  quick: boolean;
  durationSeconds: number;
  machine: Machine;
  lambda: LambdaSettings;
  bundles?: BundleSection;
  handlers?: HandlerSection;
  scale?: ScaleSection;
  endToEnd?: EndToEndSection;
  memory?: MemorySection;
  contention?: ContentionSection;
  edge?: EdgeSection;
  webhooks?: WebhooksSection;
  edgeScale?: EdgeScaleSection;
  /** Read from the committed baseline file when it exists; not part of latest.json's measurements. */
  baseline?: Baseline;
};

export type SectionName =
  | 'bundles'
  | 'handlers'
  | 'scale'
  | 'e2e'
  | 'memory'
  | 'contention'
  | 'edge'
  | 'webhooks'
  | 'edge-scale';

export type Chart = { file: string; svg: string };
