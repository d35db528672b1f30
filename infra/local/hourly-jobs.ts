/**
 * Locally, the hourly jobs EventBridge Scheduler runs on AWS run on a timer: the re-check of active domains'
 * records (the same function module, built with the local configuration), then the edge's sweep of old
 * tombstones in the local store. One run at a time: a run never overlaps the last.
 */

import { create } from '#functions/domains/recheck.ts';
import { type Config, configured } from '#lib/config.ts';
import type { Db } from '#lib/dynamodb.ts';
import { type ListableEdgeStore, sweepEdge } from '#lib/edge/sweep.ts';

export type HourlyJobs = { stop: () => Promise<void> };

export function startHourlyJobs(options: {
  config: Config;
  db: Db;
  store: ListableEdgeStore;
  intervalMs: number;
}): HourlyJobs {
  const { config, db, store, intervalMs } = options;
  const recheck = configured(create, config, db);
  let running: Promise<unknown> = Promise.resolve();
  const run = async () => {
    await recheck({});
    await sweepEdge({ store });
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
