/**
 * Configuration as a value: every setting is named once here, with its default, and read in one place.
 * Lambda entry files bind it at module scope (`atColdStart`), so a missing setting fails the cold start;
 * scripts, the local gateway, benchmarks and tests build a `Config` themselves and never touch `process.env`.
 */
import * as v from 'valibot';
import { bindAtColdStart, ConfigError, type Env, HOST_NAME } from '#lib/cold-start.ts';
import { parseDnsServers } from '#lib/dns/servers.ts';
import { type AllowedOrigins, parseAllowedOrigins } from '#lib/http/headers.ts';
import { POSITIVE_INTEGER } from '#lib/integers.ts';

export { ConfigError, configure, configured, presentationStage, required } from '#lib/cold-start.ts';

/** The longest a DNS try may wait: two tries (plus the resolver's tick) stay far inside the 10 s function timeout. */
export const DNS_TIMEOUT_MAX_MS = 2_000;

const optionalText = v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty()));
const positiveInteger = (fallback: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(POSITIVE_INTEGER, 'must be a positive integer'),
      v.transform(Number),
      v.safeInteger('must be a positive integer'),
    ),
    String(fallback),
  );

const edgeHostnameSetting = v.optional(
  v.pipe(v.string(), v.trim(), v.toLowerCase(), v.regex(HOST_NAME, 'must be a host name')),
);

/** The environment variables, as Lambda (or a caller) passes them. Unknown variables are ignored. */
const settingsSchema = v.object(
  {
    /** The single table. */
    TABLE_NAME: v.pipe(v.string('is required'), v.trim(), v.nonEmpty('is required')),
    /** DynamoDB Local (or any endpoint override); unset on AWS. */
    DYNAMODB_ENDPOINT: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^https?:\/\/[^/]/, 'must be an http(s) URL'))),
    AWS_REGION: optionalText,
    /** HMAC key of list cursors; required by the functions that sign cursors (`lib/cursor.ts`). */
    CURSOR_SECRET: optionalText,
    /** Most items one owner may hold per kind. */
    MAX_ITEMS_PER_OWNER: positiveInteger(10_000),
    /**
     * DNS servers that domain verification asks (`IP:port`, comma-separated; `lib/dns/servers.ts`): a test
     * server, or one a developer runs for `npm start`. Unset on AWS: the Lambda's own resolver.
     */
    DNS_RESOLVER: v.optional(
      v.pipe(
        v.string(),
        v.rawTransform(({ dataset, addIssue, NEVER }) => {
          // Set but empty (`DNS_RESOLVER=`) is unset: the system's resolver.
          if (dataset.value.trim() === '') return undefined;
          try {
            return parseDnsServers(dataset.value);
          } catch (error) {
            addIssue({ message: (error as Error).message });
            return NEVER;
          }
        }),
      ),
    ),
    /**
     * The origins whose pages may call the API from a browser (CORS): `*`, or origins separated by commas
     * (`https://app.example.com,https://admin.example.com`). Read by the API handlers, which answer with the
     * CORS headers; the stack sets it from the stage (`infra/stages.ts`), and it is `*` by default (`npm start`).
     */
    CORS_ALLOWED_ORIGINS: v.optional(
      v.pipe(
        v.string(),
        v.rawTransform(({ dataset, addIssue, NEVER }) => {
          try {
            return parseAllowedOrigins(dataset.value);
          } catch (error) {
            addIssue({ message: (error as Error).message });
            return NEVER;
          }
        }),
      ),
      '*',
    ),
    /** The edge's CloudFront KeyValueStore (its ARN): required by the edge sync function only. */
    EDGE_KVS_ARN: optionalText,
    /**
     * The host name a served domain's CNAME points at (the stage's edge: `infra/stages.ts`), shown in every
     * domain's `records`; required by the functions that show domains (`lib/routes.ts`).
     */
    EDGE_HOSTNAME: edgeHostnameSetting,
    /** The stage's multi-tenant CloudFront distribution, whose tenants the edge sync creates and disables. */
    EDGE_DISTRIBUTION_ID: optionalText,
    /** The stage's CloudFront connection group, whose routing endpoint served domains point at: the tenants' group. */
    EDGE_CONNECTION_GROUP_ID: optionalText,
    /** What the stage's tenant names start with (`domains-spaces-prod`), so stages in one account tell theirs apart. */
    EDGE_TENANT_PREFIX: optionalText,
    /** How long one DNS try waits, in ms; a lookup tries twice (`lib/dns/resolver.ts`). At most 2 s. */
    DNS_TIMEOUT_MS: v.pipe(
      positiveInteger(DNS_TIMEOUT_MAX_MS),
      v.maxValue(DNS_TIMEOUT_MAX_MS, `must be at most ${DNS_TIMEOUT_MAX_MS}`),
    ),
  },
  'is required',
);

export type Settings = v.InferInput<typeof settingsSchema>;

export type Config = {
  tableName: string;
  dynamodbEndpoint?: string;
  region?: string;
  cursorSecret?: string;
  maxItemsPerOwner: number;
  /** The DNS servers domain verification asks; absent: the system's (Lambda's) resolver. */
  dnsServers?: string[];
  dnsTimeoutMs: number;
  /** Who may read the API's answers from a browser (`lib/http/headers.ts`). */
  corsAllowedOrigins: AllowedOrigins;
  edgeKvsArn?: string;
  edgeDistributionId?: string;
  edgeConnectionGroupId?: string;
  edgeTenantPrefix?: string;
  edgeHostname?: string;
};

function parseSettings<Schema extends v.GenericSchema>(schema: Schema, env: Env): v.InferOutput<Schema> {
  const result = v.safeParse(schema, env);
  if (!result.success) {
    const problems = result.issues.map((issue) => `${issue.path?.[0]?.key ?? 'configuration'} ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return result.output;
}

/** Reads and checks the settings; throws one message naming every bad or missing setting. */
export function loadConfig(env: Env = process.env): Config {
  const settings = parseSettings(settingsSchema, env);
  return {
    tableName: settings.TABLE_NAME,
    maxItemsPerOwner: settings.MAX_ITEMS_PER_OWNER,
    dnsTimeoutMs: settings.DNS_TIMEOUT_MS,
    corsAllowedOrigins: settings.CORS_ALLOWED_ORIGINS,
    ...(settings.DNS_RESOLVER ? { dnsServers: settings.DNS_RESOLVER } : {}),
    ...(settings.DYNAMODB_ENDPOINT ? { dynamodbEndpoint: settings.DYNAMODB_ENDPOINT } : {}),
    ...(settings.AWS_REGION ? { region: settings.AWS_REGION } : {}),
    ...(settings.CURSOR_SECRET ? { cursorSecret: settings.CURSOR_SECRET } : {}),
    ...(settings.EDGE_KVS_ARN ? { edgeKvsArn: settings.EDGE_KVS_ARN } : {}),
    ...(settings.EDGE_DISTRIBUTION_ID ? { edgeDistributionId: settings.EDGE_DISTRIBUTION_ID } : {}),
    ...(settings.EDGE_CONNECTION_GROUP_ID ? { edgeConnectionGroupId: settings.EDGE_CONNECTION_GROUP_ID } : {}),
    ...(settings.EDGE_TENANT_PREFIX ? { edgeTenantPrefix: settings.EDGE_TENANT_PREFIX } : {}),
    ...(settings.EDGE_HOSTNAME ? { edgeHostname: settings.EDGE_HOSTNAME } : {}),
  };
}

/**
 * A function module's `handler` export. On Lambda it is bound to the environment's configuration while the
 * module initialises, so a missing setting fails the cold start. Elsewhere nothing is read at import: the
 * local gateway, tests and benchmarks build the handler with the module's own `create(config)`.
 */
export function atColdStart<Handler, Settings = Config>(
  create: (config: Settings) => Handler,
  load: (env: Env) => Settings = loadConfig as unknown as (env: Env) => Settings,
): Handler {
  return bindAtColdStart(create, load);
}
