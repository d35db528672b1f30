/**
 * Locally, the hourly re-check of active domains runs on a timer instead of EventBridge Scheduler: the same
 * function module, built with the local configuration, once per interval (a run never overlaps the last).
 */

import { create } from '#functions/domains/recheck.ts';
import { type Config, configured } from '#lib/config.ts';
import type { Db } from '#lib/dynamodb.ts';

export type DomainCheckTimer = { stop: () => Promise<void> };

export function startDomainChecks(config: Config, db: Db, intervalMs: number): DomainCheckTimer {
  const recheck = configured(create, config, db);
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() => recheck({})).catch((error) => console.error(`Domain checks failed: ${error}`));
  }, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
