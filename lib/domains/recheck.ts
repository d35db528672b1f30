/**
 * The hourly re-check of active domains (EventBridge Scheduler on AWS, a timer in `npm start`): every domain due
 * (`dueDomains`) is checked again (`recheckDomain`: its records looked up, the next check scheduled, a domain
 * whose TXT record has been missing for 7 days returned to pending). A few at a time, so DNS latency does not
 * add up; it stops taking new ones when the time left runs short, and what it did not reach stays due for the
 * next run. One domain's failure (DNS unavailable, a conflict beyond the write budget) is logged and counted,
 * and that domain stays due too.
 */

import type { Db } from '#lib/data/dynamodb.ts';
import { type DueDomain, dueDomains } from '#lib/domains/data/checks.ts';
import { recheckDomain } from '#lib/domains/data/domains.ts';
import type { LookupRecords } from '#lib/domains/rules/dns-records.ts';
import { log } from '#lib/platform/log.ts';

export type CheckRun = {
  /** Domains checked. */
  checked: number;
  /** Of those, domains that showed something new (a `domain.updated`); the others only had their next check moved. */
  changed: number;
  /** Of those, domains that returned to pending (TXT record missing for the grace period). */
  returnedToPending: number;
  /** Domains whose check failed: they stay due. */
  failed: number;
  /** Whether the run stopped with due domains left (time ran short): the next run takes them. */
  cutShort: boolean;
};

export type CheckRunOptions = {
  db: Db;
  lookupRecords: LookupRecords;
  now?: () => Date;
  /** The time left to the run (Lambda's remaining time); unbounded when absent. */
  timeLeftMs?: () => number;
  /** Checks in flight at once. */
  concurrency?: number;
  /** No new check starts with less time left than this: one check's DNS budget and write, with margin. */
  reserveMs?: number;
};

/**
 * A run takes the domains due before it starts and those due within this margin: each check puts the next one
 * an interval after it ran, so a domain checked a moment into one run would otherwise be due a moment after the
 * next run starts, and wait a whole extra interval (every other run, at the 5-minute rate).
 */
export const DUE_AHEAD_MS = 60_000;

export async function runDueChecks({
  db,
  lookupRecords,
  now = () => new Date(),
  timeLeftMs = () => Number.POSITIVE_INFINITY,
  concurrency = 8,
  reserveMs = 15_000,
}: CheckRunOptions): Promise<CheckRun> {
  const run: CheckRun = { checked: 0, changed: 0, returnedToPending: 0, failed: 0, cutShort: false };
  const due = dueDomains(db, new Date(now().getTime() + DUE_AHEAD_MS));

  async function check({ owner, id }: DueDomain) {
    try {
      const result = await recheckDomain(db, lookupRecords, owner, id);
      if (!result) return;
      const { domain, changed } = result;
      run.checked++;
      if (changed) run.changed++;
      if (domain.status === 'pending') {
        run.returnedToPending++;
        log('info', 'Domain returned to pending', { owner, id, txtMissingSince: domain.check?.txtMissingSince });
      }
    } catch (error) {
      run.failed++;
      log('warn', 'Domain check failed', { owner, id, error: String(error) });
    }
  }

  // Each worker takes the next due domain until none is left or time runs short; the generator is shared.
  async function worker() {
    for (;;) {
      if (timeLeftMs() < reserveMs) {
        run.cutShort = true;
        return;
      }
      const next = await due.next();
      if (next.done) return;
      await check(next.value);
    }
  }
  // Workers share one generator: its `next()` calls are queued, so each due domain goes to one worker.
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (run.cutShort) await due.return(undefined);
  return run;
}
