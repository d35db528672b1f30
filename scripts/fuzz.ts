/**
 * `npm run fuzz`: the contract fuzzer against the stack `npm start` runs (read from its local-stack.json), each
 * case as a new owner with a key made in its table. The engine is `test/support/fuzz/` (`runner.ts`), which
 * `test/contract/fuzz.test.ts` also runs, bounded, in `npm test`; docs/api.md maps its checks to Schemathesis'.
 */
import { randomUUID } from 'node:crypto';
import { localSettings, readLocalStack } from '#infra/local/settings.ts';
import { loadConfig } from '#lib/config.ts';
import { createApiKey } from '#lib/data/api-key-admin.ts';
import { createDb } from '#lib/dynamodb.ts';
import { describeReport } from '#test/support/fuzz/report.ts';
import { type FuzzTarget, fuzz } from '#test/support/fuzz/runner.ts';
import { commandLine, helpOption } from './support/cli.ts';

const USAGE = `Usage: npm run fuzz -- [--runs <n>] [--time <seconds>] [--seed <n>] [--concurrency <n>]

Generates requests from docs/openapi.json for every operation (valid and invalid bodies, queries, ids and
headers) and sends them to the stack \`npm start\` runs (read from its local-stack.json), each case as a new
owner with a key of its own. Fails (exit code 1) on any 5xx, any answer the document does not allow, a status
the request should not get, a 2xx that differs from a following GET, or a refused request that changed data.

Options:
  --runs <n>          cases to generate (default 500)
  --time <seconds>    stop starting cases after this long (default 120)
  --seed <n>          fast-check's seed, to replay a run (default: random, printed)
  --concurrency <n>   cases at a time (default 4)
  -h, --help          this help`;

async function main() {
  const parsed = commandLine(USAGE, {
    options: {
      ...helpOption,
      runs: { type: 'string' },
      time: { type: 'string' },
      seed: { type: 'string' },
      concurrency: { type: 'string' },
    },
  });
  if (!parsed) return;
  const number = (name: string, value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value)) {
      console.error(`--${name} must be a whole number\n\n${USAGE}`);
      process.exit(2);
    }
    return Number(value);
  };
  const { values } = parsed;
  const stack = readLocalStack(localSettings(process.env).dataDir);
  if (!stack) {
    console.error('No local stack found: start it with `npm start` (in another terminal), then run this again.');
    process.exit(2);
  }
  const db = createDb(loadConfig({ TABLE_NAME: stack.tableName, DYNAMODB_ENDPOINT: stack.endpoint }));
  const target: FuzzTarget = {
    apiUrl: stack.apiUrl,
    newKey: async () => (await createApiKey(db, `fuzz-${randomUUID()}`, 'npm run fuzz')).key,
  };
  const report = await fuzz(target, {
    runs: number('runs', values.runs, 500),
    timeLimitMs: number('time', values.time, 120) * 1000,
    ...(values.seed === undefined ? {} : { seed: number('seed', values.seed, 0) }),
    concurrency: number('concurrency', values.concurrency, 4),
    log: (line) => console.error(line),
  });
  console.log(describeReport(report));
  process.exitCode = report.failures.length === 0 ? 0 : 1;
}

main().catch((error) => {
  console.error((error as Error).message);
  process.exit(1);
});
