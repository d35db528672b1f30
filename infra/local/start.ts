/**
 * `npm start`: DynamoDB Local, the table, a development key, and the local gateway on one port, all listening
 * on 127.0.0.1 unless HOST says otherwise. Ctrl-C stops everything, the Java process included.
 */
import { existsSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { commandLine, helpOption } from '#infra/command-line.ts';
import { createApiKey } from '#lib/auth/data/key-admin.ts';
import { ownerOfKey } from '#lib/auth/data/keys.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { backfillFeedHeads } from '#lib/data/migrations/backfill-feed-heads.ts';
import { backfillDueChecks } from '#lib/domains/data/migrations/backfill-due-checks.ts';
import { buildDocsPage, DOCS_PAGE_FILE } from '#lib/openapi/files.ts';
import { loadWebhookConfig } from '#lib/webhooks/settings.ts';
import { rateLimits } from '../rate-limits.ts';
import {
  connectHost,
  type DynamoDbLocal,
  ensureTable,
  LOOPBACK,
  portInUse,
  startDynamoDbLocal,
} from './dynamodb-local.ts';
import { type Edge, startEdge } from './edge.ts';
import { type EdgeFollower, followChanges } from './edge-feed.ts';
import { type Gateway, startGateway } from './gateway.ts';
import { type HourlyJobs, startHourlyJobs } from './hourly-jobs.ts';
import {
  isLoopbackHost,
  LOCAL_EDGE_HOSTNAME,
  type LocalSettings,
  localSettings,
  lockDataDir,
  persistedSecret,
  readLocalStack,
  saveSecret,
  stackFile,
  writeLocalStack,
} from './settings.ts';
import { type LocalStageEdge, startStageEdge } from './stage-edge.ts';
import { startWebhookWorker, type WebhookWorker } from './webhook-worker.ts';

const DEV_OWNER = 'dev';
const DEV_KEY_FILE = 'dev-key';

const USAGE = `Usage: npm start [-- --help]

Starts the local stack: DynamoDB Local (data in DATA_DIR), the table, a development key (owner "${DEV_OWNER}"),
the local API gateway running the Lambda handlers, and the local edge serving verified domains' redirects
(the CloudFront Function, fed from the change feed). Once it answers, it writes DATA_DIR/local-stack.json
(apiUrl, keyFile, endpoint, tableName, pid), which the key tool and the README's walkthrough read. One
\`npm start\` per data folder: a second one on the same DATA_DIR (or a DynamoDB Local on its folder) stops
before writing anything. Ctrl-C stops everything and removes local-stack.json. Killed (SIGKILL), it leaves
nothing running (DynamoDB Local ends with it), and the next \`npm start\` on the folder resumes: the webhooks'
pending retries and the events not yet delivered are kept in the table.

Options:
  -h, --help                this help

Environment:
  HOST                      the address DynamoDB Local and the API listen on (default 127.0.0.1: this
                            machine only; 0.0.0.0 for every interface)
  PORT                      the API's port (default 3000; 0: any free port)
  EDGE_PORT                 the local edge's port, serving verified domains' redirects (default PORT + 1)
  CLOUDFRONT_PORT           the local CloudFront stand-in's port, whose API the edge sync calls (default
                            PORT + 2; always on 127.0.0.1)
  DEFAULT_INDEX_PAGE, DEFAULT_NOT_FOUND_PAGE
                            where the edge sends a domain without its own pages (default: none, a 404)
  DYNAMODB_PORT             DynamoDB Local's port (default 8000; 0: any free port)
  DYNAMODB_ENDPOINT         use this DynamoDB instead of starting DynamoDB Local
  DATA_DIR                  the data folder (default .data)
  TABLE_NAME                the table (default domains-spaces-local)
  AUTH_CACHE_TTL_SECONDS    how long an authorizer answer is reused per key (default 60)
  RATE_LIMIT_PER_MINUTE     requests per minute per key before 429 (default ${rateLimits.dev.perKeyPerMinute}; 0: no limit)
  DNS_RESOLVER              DNS servers domain verification asks, host:port comma-separated (default: the system's)
  CORS_ALLOWED_ORIGINS      origins a browser page may call the API from: * (default) or a comma-separated list
  DOMAIN_CHECK_INTERVAL_SECONDS
                            how often the scheduled jobs run (default 300, as on AWS): the re-check of the domains
                            due (each is due an hour after its last check, 5 minutes while it waits for the
                            edge in its first 72 hours) and the edge's sweep
  EDGE_HOSTNAME             the host a served domain's CNAME names, in its records (default ${LOCAL_EDGE_HOSTNAME})
  WEBHOOK_RETRY_DELAYS      the webhook retry schedule (default 5s,5m,30m,2h,5h,10h,10h; try 1s,1s,1s)
  WEBHOOK_LOCAL_LOOPBACK    true: webhooks may call http:// on this machine; false: https to public addresses
                            only. Default: true while HOST is a loopback address, else false (anyone on the
                            network could make the stack call this machine). Never the stack's own ports
                            (PORT, EDGE_PORT, DYNAMODB_PORT, CLOUDFRONT_PORT), whatever this says
  CURSOR_SECRET, MAX_ITEMS_PER_OWNER, MAX_WEBHOOKS_PER_OWNER, DNS_TIMEOUT_MS: as on AWS (README, Configuration)`;

async function main() {
  if (!commandLine(USAGE, { options: helpOption })) return;
  let settings: LocalSettings;
  try {
    settings = localSettings(process.env);
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 2;
    return;
  }
  const { dataDir, tableName: localTableName, host } = settings;
  // Before anything is written into the data folder: is another `npm start` using it?
  lockDataDir(dataDir);

  let dynamo: DynamoDbLocal | undefined;
  let gateway: Gateway | undefined;
  let edge: Edge | undefined;
  let follower: EdgeFollower | undefined;
  let hourly: HourlyJobs | undefined;
  let webhooks: WebhookWorker | undefined;
  let stageEdge: LocalStageEdge | undefined;
  const shutdown = async (code: number) => {
    // The file names this process: once it stops, nothing is there any more.
    if (readLocalStack(dataDir)?.pid === process.pid) rmSync(stackFile(dataDir), { force: true });
    await hourly?.stop();
    await follower?.stop();
    await webhooks?.stop();
    await edge?.close();
    await stageEdge?.close();
    await gateway?.close();
    await dynamo?.stop();
    process.exit(code);
  };
  process.once('SIGINT', () => void shutdown(0));
  process.once('SIGTERM', () => void shutdown(0));

  if (settings.webhookLocalLoopback && !isLoopbackHost(host)) {
    console.error(
      `WEBHOOK_LOCAL_LOOPBACK=true with HOST=${host}: anyone who reaches the API with a webhooks:write key can make the stack call this machine's ports.`,
    );
  }
  // A port in use is named by its setting before anything starts (and again by each listener, should one be
  // taken meanwhile).
  const ports: [string, number, string][] = [
    ['PORT', settings.port, host],
    ['EDGE_PORT', settings.edgePort, host],
    ['CLOUDFRONT_PORT', settings.cloudfrontPort, LOOPBACK],
    ...(process.env.DYNAMODB_ENDPOINT
      ? []
      : [['DYNAMODB_PORT', settings.dynamodbPort, host] as [string, number, string]]),
  ];
  for (const [setting, port, address] of ports) {
    if (port !== 0 && (await portInUse(port, address))) {
      console.error(portInUseMessage(setting, port));
      process.exit(1);
    }
  }
  // The stack's own ports, never a webhook's destination: each added as its listener starts.
  const reservedPorts = new Set<number>();
  const reserve = (port: number) => reservedPorts.add(port);

  try {
    dynamo = process.env.DYNAMODB_ENDPOINT
      ? { endpoint: process.env.DYNAMODB_ENDPOINT, stop: async () => {} }
      : await startDynamoDbLocal({
          host,
          port: settings.dynamodbPort === 0 ? undefined : settings.dynamodbPort,
          dataDir: join(dataDir, 'dynamodb'),
        });
    const dynamoPort = Number(new URL(dynamo.endpoint).port);
    if (dynamoPort) reserve(dynamoPort);
    await ensureTable(dynamo.endpoint, localTableName);
    // The functions' settings, as the stack sets their environment; the rest of the environment passes through
    // (MAX_ITEMS_PER_OWNER, DNS_RESOLVER, DNS_TIMEOUT_MS, say).
    const config = {
      ...loadWebhookConfig({
        ...process.env,
        DYNAMODB_ENDPOINT: dynamo.endpoint,
        TABLE_NAME: localTableName,
        CURSOR_SECRET: process.env.CURSOR_SECRET ?? persistedSecret(dataDir, 'cursor-secret'),
        EDGE_HOSTNAME: process.env.EDGE_HOSTNAME || LOCAL_EDGE_HOSTNAME,
        // A receiver on this machine (http://127.0.0.1:…) is what a developer tries webhooks with: allowed while
        // only this machine reaches the stack (localSettings).
        WEBHOOK_LOCAL_LOOPBACK: String(settings.webhookLocalLoopback),
      }),
      webhookReservedPorts: reservedPorts,
    };
    const db = createDb(config);

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

    gateway = await listening('PORT', settings.port, () =>
      startGateway({
        config,
        db,
        host,
        port: settings.port,
        authCacheTtlSeconds: Number(process.env.AUTH_CACHE_TTL_SECONDS ?? 60),
        rateLimitPerMinute: Number(process.env.RATE_LIMIT_PER_MINUTE ?? rateLimits.dev.perKeyPerMinute),
      }),
    );
    reserve((gateway.server.address() as AddressInfo).port);
    // The address that reaches it from this machine (HOST=0.0.0.0 is reached on 127.0.0.1).
    const origin = `http://${connectHost(host)}:${(gateway.server.address() as AddressInfo).port}`;
    const apiUrl = `${origin}/api/v1`;
    // The edge: the local CloudFront (its tenants and key-value store, reached through the SDK as on AWS), kept
    // in line with the change feed by the sync's own code, and the CloudFront Function serving from it.
    stageEdge = await listening('CLOUDFRONT_PORT', settings.cloudfrontPort, () =>
      startStageEdge({ config, tenantPrefix: localTableName, port: settings.cloudfrontPort }),
    );
    reserve(Number(new URL(stageEdge.cloudFront.endpoint).port));
    const cloudFront = stageEdge.cloudFront;
    const { kvsArn, distributionId } = stageEdge;
    edge = await listening('EDGE_PORT', settings.edgePort, () =>
      startEdge({
        cloudFront,
        kvsArn,
        distributionId,
        host,
        port: settings.edgePort,
        settings: {
          defaultIndexPage: settings.defaultIndexPage,
          defaultNotFoundPage: settings.defaultNotFoundPage,
          cacheSeconds: 60,
        },
      }),
    );
    reserve(edge.port);
    const log = (entry: Record<string, unknown>) => console.error(JSON.stringify(entry));
    // The bus's targets: the edge's sync, and the webhooks' fan-out and deliveries (retried on timers).
    // Feed heads from before the feed-change index get its keys, before the follower queries it (a one-off scan).
    await backfillFeedHeads(db);
    webhooks = startWebhookWorker({ db, config, log });
    follower = followChanges({
      db,
      edge: stageEdge.edge,
      onEvent: webhooks.onEvent,
      onPosition: webhooks.onPosition,
      intervalMs: 500,
      log,
    });
    // The hourly jobs EventBridge Scheduler runs on AWS (the re-check of active domains' records, the edge's
    // sweep); a table from an earlier version gets its active domains into the re-check first (the migration
    // step of deployment.md).
    await backfillDueChecks(db);
    hourly = startHourlyJobs({ config, db, edge: stageEdge.edge, intervalMs: settings.domainCheckIntervalMs });
    const edgeUrl = `http://${connectHost(host)}:${edge.port}`;
    // Only now that the stack answers: the key tool and the walkthrough read where it is from here.
    writeLocalStack(dataDir, {
      apiUrl,
      keyFile: join(dataDir, DEV_KEY_FILE),
      edgeUrl,
      endpoint: dynamo.endpoint,
      tableName: localTableName,
      pid: process.pid,
    });
    console.log(`DynamoDB Local: ${dynamo.endpoint} (table ${localTableName}, data in ${dataDir})`);
    console.log(`API: ${apiUrl}  (owner "${DEV_OWNER}")`);
    console.log(`Development key: ${key}`);
    console.log(`Reference: ${origin}/docs  (OpenAPI: ${apiUrl}/openapi.json)`);
    console.log(`Edge (verified domains' redirects): ${edgeUrl}  (curl -si -H 'Host: <domain>' ${edgeUrl}/)`);
    console.log(`Where it runs, for scripts: ${stackFile(dataDir)}`);
    console.log(
      `Domain verification asks ${config.dnsResolver ? `DNS_RESOLVER=${config.dnsResolver}` : "the system's DNS resolver (set DNS_RESOLVER=host:port for another)"}`,
    );
    console.log('Try:');
    console.log(
      `  curl -s -H 'Accept: application/json' -H 'Authorization: Bearer ${key}' --data-urlencode 'name=Marketing' ${apiUrl}/spaces`,
    );
    console.log('Ctrl-C to stop.');
  } catch (error) {
    console.error((error as Error).message);
    await shutdown(1);
  }
}

/** A listener's start, whose port in use is answered with the setting that changes it (not a bare EADDRINUSE). */
async function listening<T>(setting: string, port: number, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw new Error(portInUseMessage(setting, port));
  }
}

const portInUseMessage = (setting: string, port: number) =>
  `Port ${port} (${setting}) is already in use (another \`npm start\`?): stop it, or set ${setting} to a free port (0: any free port).`;

main().catch((error) => {
  // A data folder in use (DataDirInUseError) among others: the message alone, no stack trace.
  console.error((error as Error).message);
  process.exit(1);
});
