/**
 * `npm start`: DynamoDB Local, the table, a development key, and the local gateway on one port.
 * Ctrl-C stops everything, the Java process included.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '#lib/config.ts';
import { createApiKey, ownerOfKey } from '#lib/data/api-keys.ts';
import { createDb } from '#lib/dynamodb.ts';
import { buildDocsPage, DOCS_PAGE_FILE } from '#lib/openapi/files.ts';
import { rateLimits } from '../rate-limits.ts';
import { ensureTable, startDynamoDbLocal } from './dynamodb-local.ts';
import { startGateway } from './gateway.ts';
import { localSettings, persistedSecret, saveSecret, writeLocalStack } from './settings.ts';

const DEV_OWNER = 'dev';
const DEV_KEY_FILE = 'dev-key';

async function main() {
  const { dataDir, tableName: localTableName } = localSettings(process.env);
  const port = Number(process.env.PORT ?? 3000);
  const dynamo = process.env.DYNAMODB_ENDPOINT
    ? { endpoint: process.env.DYNAMODB_ENDPOINT, stop: async () => {} }
    : await startDynamoDbLocal({ port: Number(process.env.DYNAMODB_PORT ?? 8000), dataDir: join(dataDir, 'dynamodb') });

  const shutdown = async (code: number) => {
    await dynamo.stop();
    process.exit(code);
  };
  process.once('SIGINT', () => void shutdown(0));
  process.once('SIGTERM', () => void shutdown(0));

  try {
    await ensureTable(dynamo.endpoint, localTableName);
    // The functions' settings, as the stack sets their environment; the rest of the environment passes through
    // (MAX_ITEMS_PER_OWNER, DNS_RESOLVER, DNS_TIMEOUT_MS, say).
    const config = loadConfig({
      ...process.env,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      TABLE_NAME: localTableName,
      CURSOR_SECRET: process.env.CURSOR_SECRET ?? persistedSecret(dataDir, 'cursor-secret'),
    });
    const db = createDb(config);
    writeLocalStack(dataDir, { endpoint: dynamo.endpoint, tableName: localTableName });

    // Keys are stored hashed, so the development key is kept in the (git-ignored) data folder to be shown again.
    let key = persistedSecret(dataDir, DEV_KEY_FILE, () => '');
    if (key === '' || (await ownerOfKey(db, key)) !== DEV_OWNER) {
      key = (await createApiKey(db, DEV_OWNER, 'development key')).key;
      saveSecret(dataDir, DEV_KEY_FILE, key);
    }

    // The reference page is generated, not committed: render it once so /docs works on a fresh clone.
    if (!existsSync(DOCS_PAGE_FILE)) {
      await buildDocsPage().catch((error) =>
        console.error(`Could not render /docs (npm run openapi): ${error.message}`),
      );
    }

    const gateway = await startGateway({
      config,
      db,
      port,
      authCacheTtlSeconds: Number(process.env.AUTH_CACHE_TTL_SECONDS ?? 60),
      rateLimitPerMinute: Number(process.env.RATE_LIMIT_PER_MINUTE ?? rateLimits.dev.perKeyPerMinute),
    });
    console.log(`DynamoDB Local: ${dynamo.endpoint} (table ${localTableName}, data in ${dataDir})`);
    console.log(`API: ${gateway.url}/api/v1  (owner "${DEV_OWNER}")`);
    console.log(`Development key: ${key}`);
    console.log(`Reference: ${gateway.url}/docs  (OpenAPI: ${gateway.url}/api/v1/openapi.json)`);
    console.log(
      `Domain verification asks ${config.dnsServers ? `DNS_RESOLVER=${config.dnsServers.join(',')}` : "the system's DNS resolver (set DNS_RESOLVER=host:port for another)"}`,
    );
    console.log('Try:');
    console.log(
      `  curl -s -H 'Accept: application/json' -H 'Authorization: Bearer ${key}' --data-urlencode 'name=Marketing' ${gateway.url}/api/v1/spaces`,
    );
    console.log('Ctrl-C to stop.');
  } catch (error) {
    console.error((error as Error).message);
    await shutdown(1);
  }
}

main().catch((error) => {
  console.error((error as Error).message);
  process.exit(1);
});
