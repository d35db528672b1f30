/** What the operations scripts share: which table they work on, and errors that say what to do. */
import { localSettings, readLocalStack } from '#infra/local/settings.ts';
import { type Config, loadConfig } from '#lib/platform/config.ts';

export function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** The options naming the table, for `commandLine` (their usage lines: `--table`, `--region`, `--endpoint`). */
export const tableOptions = {
  table: { type: 'string' },
  region: { type: 'string' },
  endpoint: { type: 'string' },
} as const;

/** The usage lines of `tableOptions`, their descriptions starting at column `column` (as the script's others). */
export function tableOptionsUsage(column: number): string {
  const lines: [string, string][] = [
    ['--table <name>', 'a deployed table instead of the one `npm start` runs (with --region; default AWS credentials)'],
    ['--region <region>', "the deployed table's region"],
    ['--endpoint <url>', "a DynamoDB endpoint other than AWS's or `npm start`'s"],
  ];
  return lines.map(([option, text]) => `  ${option.padEnd(column - 2)}${text}`).join('\n');
}

/** The table to use: a deployed one named with --table, or the one `npm start` runs. */
export function tableConfig(values: { table?: string; region?: string; endpoint?: string }): Config {
  if (values.table) {
    return loadConfig({ TABLE_NAME: values.table, AWS_REGION: values.region, DYNAMODB_ENDPOINT: values.endpoint });
  }
  const local = readLocalStack(localSettings(process.env).dataDir);
  if (!local)
    fail('No local stack found: start it with `npm start`, or pass --table and --region for a deployed table.');
  return loadConfig({ TABLE_NAME: local.tableName, DYNAMODB_ENDPOINT: values.endpoint ?? local.endpoint });
}

/** Connection errors say what to run, not only `connect ECONNREFUSED`. */
export function explain(error: unknown, config: Config | undefined): string {
  const message = (error as Error).message ?? String(error);
  const code = (error as { code?: string }).code ?? '';
  const refused = code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message);
  if (refused && config?.dynamodbEndpoint) {
    return `cannot reach DynamoDB at ${config.dynamodbEndpoint}: is \`npm start\` running? Start it (or pass --table/--region for a deployed table).`;
  }
  return message;
}
