/**
 * The hourly re-check of active domains' DNS records (`lib/domains/recheck.ts`), invoked by EventBridge Scheduler:
 * not a route. Runs until the due domains are done or the time left runs short (the rest stay due); returns
 * what it did, which the schedule's logs keep.
 */
import type { Context } from 'aws-lambda';
import { createDb } from '#lib/data/dynamodb.ts';
import { configuredResolver } from '#lib/dns/resolver.ts';
import { recordsLookup } from '#lib/domains/lookups.ts';
import { type CheckRun, runDueChecks } from '#lib/domains/recheck.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, edgeHostOf, loadConfig } from '#lib/platform/config.ts';
import { log } from '#lib/platform/log.ts';

export const create = (config: Config, db = createDb(config)) => {
  const resolver = configuredResolver(config);
  const lookupRecords = recordsLookup(resolver, edgeHostOf(config).edgeHostname);
  return async (_event: unknown, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<CheckRun> => {
    const run = await runDueChecks({
      db,
      lookupRecords,
      ...(context ? { timeLeftMs: () => context.getRemainingTimeInMillis() } : {}),
    });
    log(run.failed > 0 ? 'warn' : 'info', 'Domain checks done', run);
    return run;
  };
};

export const handler = atColdStart(create, loadConfig);
