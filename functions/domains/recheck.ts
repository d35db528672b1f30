/**
 * The hourly re-check of active domains' DNS records (`lib/domain-checks.ts`), invoked by EventBridge Scheduler:
 * not a route. Runs until the due domains are done or the time left runs short (the rest stay due); returns
 * what it did, which the schedule's logs keep.
 */
import type { Context } from 'aws-lambda';
import { atColdStart, type Config, edgeHostOf } from '#lib/config.ts';
import { recordsLookup } from '#lib/dns/records.ts';
import { configuredResolver } from '#lib/dns/resolver.ts';
import { type CheckRun, runDueChecks } from '#lib/domain-checks.ts';
import { createDb } from '#lib/dynamodb.ts';
import { log } from '#lib/log.ts';

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

export const handler = atColdStart(create);
