/**
 * API key tool.
 *   keys create --owner <ownerId> [--name <label>]   prints the new key alone on the last line
 *   keys list --owner <ownerId>                      prefix, label, created, revoked (never the key)
 *   keys revoke <prefix>
 * Against the stack `npm start` runs, or a deployed table with --table and --region (default AWS credentials).
 */
import { parseArgs } from 'node:util';
import { localSettings, readLocalStack } from '#infra/local/settings.ts';
import { type Config, loadConfig } from '#lib/config.ts';
import { createApiKey, listApiKeys, OWNER_ID_PATTERN, revokeApiKey } from '#lib/data/api-keys.ts';
import { createDb } from '#lib/dynamodb.ts';

const USAGE = `Usage:
  npm run --silent keys -- create --owner <ownerId> [--name <label>] [--table <name> --region <region>]
  npm run --silent keys -- list --owner <ownerId> [--table <name> --region <region>]
  npm run --silent keys -- revoke <prefix> [--table <name> --region <region>]`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** The table to use: a deployed one named with --table, or the one `npm start` runs. */
function tableConfig(values: { table?: string; region?: string; endpoint?: string }): Config {
  if (values.table) {
    return loadConfig({ TABLE_NAME: values.table, AWS_REGION: values.region, DYNAMODB_ENDPOINT: values.endpoint });
  }
  const local = readLocalStack(localSettings(process.env).dataDir);
  if (!local)
    fail('No local stack found: start it with `npm start`, or pass --table and --region for a deployed table.');
  return loadConfig({ TABLE_NAME: local.tableName, DYNAMODB_ENDPOINT: values.endpoint ?? local.endpoint });
}

/** Connection errors say what to run, not only `connect ECONNREFUSED`. */
function explain(error: unknown, config: Config | undefined): string {
  const message = (error as Error).message ?? String(error);
  const code = (error as { code?: string }).code ?? '';
  const refused = code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message);
  if (refused && config?.dynamodbEndpoint) {
    return `cannot reach DynamoDB at ${config.dynamodbEndpoint}: is \`npm start\` running? Start it (or pass --table/--region for a deployed table).`;
  }
  return message;
}

let config: Config | undefined;

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      owner: { type: 'string' },
      name: { type: 'string' },
      table: { type: 'string' },
      region: { type: 'string' },
      endpoint: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, argument] = positionals;
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!command) fail(USAGE);

  config = tableConfig(values);
  const db = createDb(config);
  const owner = () => {
    if (!values.owner) fail(`--owner is required.\n${USAGE}`);
    if (!OWNER_ID_PATTERN.test(values.owner))
      fail('--owner must be 1-64 characters of letters, digits, and _ . @ - (starting with a letter or digit).');
    return values.owner;
  };

  switch (command) {
    case 'create': {
      const { key, record } = await createApiKey(db, owner(), values.name ?? '');
      console.log(`Created key ${record.prefix}… for owner ${record.owner}. It is shown only once:`);
      console.log(key);
      return;
    }
    case 'list': {
      const records = await listApiKeys(db, owner());
      if (records.length === 0) console.log('No keys.');
      for (const record of records) {
        console.log([record.prefix, record.createdAt, record.revoked ? 'revoked' : 'active', record.label].join('\t'));
      }
      return;
    }
    case 'revoke': {
      if (!argument) fail(`revoke needs the key's prefix.\n${USAGE}`);
      if (!(await revokeApiKey(db, argument))) fail(`No key with prefix ${argument}.`);
      console.log(`Revoked ${argument}.`);
      return;
    }
    default:
      fail(`Unknown command "${command}".\n${USAGE}`);
  }
}

main().catch((error) => {
  console.error(`keys: ${explain(error, config)}`);
  process.exit(1);
});
