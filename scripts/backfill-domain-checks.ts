/**
 * Migration step of the hourly domain re-check: puts the active domains stored before the due-check index
 * existed into it, due at once (`backfillDueChecks`). Run once after deploying the version that added the index;
 * safe to run again.
 *   domains:backfill-checks [--table <name> --region <region>]
 */

import { commandLine, helpOption } from '#infra/command-line.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { backfillDueChecks } from '#lib/domains/data/migrations/backfill-due-checks.ts';
import type { Config } from '#lib/platform/config.ts';
import { explain, tableConfig, tableOptions, tableOptionsUsage } from './support/table.ts';

const USAGE = `Usage:
  npm run --silent domains:backfill-checks -- [--table <name> --region <region>]

Puts every active domain stored before the hourly DNS re-check existed into its index (due at once), so the
next scheduled run checks it. Run it once after deploying that version (docs/deployment.md); safe to run again,
and while the API serves. It scans the table once.

Options:
${tableOptionsUsage(23)}
  -h, --help           this help`;

let config: Config | undefined;

async function main() {
  const parsed = commandLine(USAGE, {
    options: { ...helpOption, ...tableOptions },
  });
  if (!parsed) return;
  config = tableConfig(parsed.values);
  const { scanned, added } = await backfillDueChecks(createDb(config));
  console.log(`Items scanned: ${scanned}; active domains put into the re-check: ${added}`);
}

main().catch((error) => {
  console.error(`domains:backfill-checks: ${explain(error, config)}`);
  process.exit(1);
});
