/**
 * Locally, the jobs EventBridge Scheduler runs on AWS run on a timer: the re-check of the domains due (the same
 * function module, built with the local configuration), then the edge's sweep of old tombstones and their
 * disabled tenants on the local CloudFront. One run at a time: a run never overlaps the last.
 */

import { create } from '#functions/domains/recheck.ts';
import type { Edge } from '#functions/edge/sync.ts';
import type { Db } from '#lib/data/dynamodb.ts';
import { sweepEdge } from '#lib/edge/sweep.ts';
import { type Config, configured } from '#lib/platform/config.ts';

export type HourlyJobs = { stop: () => Promise<void> };

export function startHourlyJobs(options: { config: Config; db: Db; edge: Edge; intervalMs: number }): HourlyJobs {
  const { config, db, edge, intervalMs } = options;
  const recheck = configured(create, config, db);
  let running: Promise<unknown> = Promise.resolve();
  const run = async () => {
    await recheck({});
    await sweepEdge({ shards: [{ store: edge.store, ...(edge.tenants ? { tenants: edge.tenants } : {}) }] });
  };
  const timer = setInterval(() => {
    running = running.then(run).catch((error) => console.error(`Hourly jobs failed: ${error}`));
  }, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
