/**
 * Runbook step after a point-in-time restore or a re-created table: every owner's change feed takes a new
 * epoch, so cursors handed out before answer 410 (re-list, then read the feed again) instead of a wrong page.
 *   feed-epoch --all [--table <name> --region <region>]
 *   feed-epoch --owner <ownerId> [--table <name> --region <region>]
 * Against the stack `npm start` runs, or a deployed table with --table and --region (default AWS credentials).
 */

import { commandLine, helpOption } from '#infra/command-line.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { setEveryFeedEpoch, setFeedEpoch } from '#lib/data/migrations/feed-epoch.ts';
import type { Config } from '#lib/platform/config.ts';
import { explain, fail, tableConfig, tableOptions, tableOptionsUsage } from './support/table.ts';

const USAGE = `Usage:
  npm run --silent feed:epoch -- --all [--table <name> --region <region>]
  npm run --silent feed:epoch -- --owner <ownerId> [--table <name> --region <region>]

Gives every owner's change feed (or one owner's) a new epoch: run it once after a point-in-time restore
or after re-creating the table (docs/events.md). Cursors from before then answer 410.

Options:
  --all                every owner's feed
  --owner <ownerId>    one owner's feed
${tableOptionsUsage(23)}
  -h, --help           this help`;

let config: Config | undefined;

async function main() {
  const parsed = commandLine(USAGE, {
    options: {
      ...helpOption,
      all: { type: 'boolean' },
      owner: { type: 'string' },
      ...tableOptions,
    },
  });
  if (!parsed) return;
  const { values } = parsed;
  if (values.all === (values.owner !== undefined)) fail(USAGE);
  config = tableConfig(values);
  const db = createDb(config);
  if (values.owner !== undefined) {
    const epoch = await setFeedEpoch(db, values.owner);
    console.log(epoch === null ? `${values.owner} has no change feed yet.` : `${values.owner}: epoch ${epoch}`);
    return;
  }
  console.log(`Feeds given a new epoch: ${await setEveryFeedEpoch(db)}`);
}

main().catch((error) => {
  console.error(`feed:epoch: ${explain(error, config)}`);
  process.exit(1);
});
