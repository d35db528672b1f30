/**
 * Configuration as a value: every setting is named once here, with its default, and read in one place.
 * Lambda entry files bind it at module scope (`atColdStart` of `lib/platform/cold-start.ts`, with `loadConfig`), so a missing setting fails the cold start;
 * scripts, the local gateway, benchmarks and tests build a `Config` themselves and never touch `process.env`.
 */
import * as v from 'valibot';
import { ConfigError, type Env, HOST_NAME } from '#lib/platform/cold-start.ts';
import { POSITIVE_INTEGER } from '#lib/platform/integers.ts';
import { type AllowedOrigins, parseAllowedOrigins } from '#lib/platform/origins.ts';

export { ConfigError, configure, configured, edgeHostOf, requiredSetting } from '#lib/platform/cold-start.ts';

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

/**
 * The environment variables every function reads, as Lambda (or a caller) passes them; a function with settings
 * of its own extends them (the edge sync: `lib/edge/settings.ts`). Unknown variables are ignored.
 */
export const settingEntries = {
  /** The single table. */
  TABLE_NAME: v.pipe(v.string('is required'), v.trim(), v.nonEmpty('is required')),
  /** DynamoDB Local (or any endpoint override); unset on AWS. */
  DYNAMODB_ENDPOINT: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^https?:\/\/[^/]/, 'must be an http(s) URL'))),
  AWS_REGION: optionalText,
  /** HMAC key of list cursors; required by the functions that sign cursors (`lib/http/cursor.ts`). */
  CURSOR_SECRET: optionalText,
  /** Most items one owner may hold per kind. */
  MAX_ITEMS_PER_OWNER: positiveInteger(10_000),
  /**
   * DNS servers that domain verification asks (`IP:port`, comma-separated): a test server, or one a developer
   * runs for `npm start`. Unset on AWS: the Lambda's own resolver. Kept as given; the functions that ask DNS
   * parse it when they build their resolver, at cold start (`configuredResolver`, `lib/dns/resolver.ts`).
   */
  DNS_RESOLVER: v.optional(
    // Set but empty (`DNS_RESOLVER=`) is unset: the system's resolver.
    v.pipe(
      v.string(),
      v.trim(),
      v.transform((value) => (value === '' ? undefined : value)),
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
  /**
   * The host name a served domain's CNAME points at (the stage's edge: `infra/stages.ts`), shown in every
   * domain's `records`; required by the functions that show domains (`lib/routes.ts`).
   */
  EDGE_HOSTNAME: edgeHostnameSetting,
  /**
   * The stage's routing endpoint, set only where it is not `EDGE_HOSTNAME` (a stage's own `edge.hostname`): the
   * target of a zone apex's ALIAS in `records`, which a Route 53 alias cannot point at another zone's name.
   */
  EDGE_ROUTING_ENDPOINT: edgeHostnameSetting,
  /** How long one DNS try waits, in ms; a lookup tries twice (`lib/dns/resolver.ts`). At most 2 s. */
  DNS_TIMEOUT_MS: v.pipe(
    positiveInteger(DNS_TIMEOUT_MAX_MS),
    v.maxValue(DNS_TIMEOUT_MAX_MS, `must be at most ${DNS_TIMEOUT_MAX_MS}`),
  ),
};

const settingsSchema = v.object(settingEntries, 'is required');

export type Settings = v.InferInput<typeof settingsSchema>;

export type Config = {
  tableName: string;
  dynamodbEndpoint?: string;
  region?: string;
  cursorSecret?: string;
  maxItemsPerOwner: number;
  /** `DNS_RESOLVER` as given: the DNS servers domain checks ask; absent: the system's (Lambda's) resolver. */
  dnsResolver?: string;
  dnsTimeoutMs: number;
  /** Who may read the API's answers from a browser (`lib/http/headers.ts`). */
  corsAllowedOrigins: AllowedOrigins;
  edgeHostname?: string;
  edgeRoutingEndpoint?: string;
};

/** Reads and checks the settings `schema` describes; throws one message naming every bad or missing setting. */
export function parseSettings<Schema extends v.GenericSchema>(schema: Schema, env: Env): v.InferOutput<Schema> {
  const result = v.safeParse(schema, env);
  if (!result.success) {
    const problems = result.issues.map((issue) => `${issue.path?.[0]?.key ?? 'configuration'} ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return result.output;
}

/** Reads and checks the settings; throws one message naming every bad or missing setting. */
export function loadConfig(env: Env): Config {
  return configOf(parseSettings(settingsSchema, env));
}

/** The configuration the shared settings make. */
export function configOf(settings: v.InferOutput<typeof settingsSchema>): Config {
  return {
    tableName: settings.TABLE_NAME,
    maxItemsPerOwner: settings.MAX_ITEMS_PER_OWNER,
    dnsTimeoutMs: settings.DNS_TIMEOUT_MS,
    corsAllowedOrigins: settings.CORS_ALLOWED_ORIGINS,
    ...(settings.DNS_RESOLVER ? { dnsResolver: settings.DNS_RESOLVER } : {}),
    ...(settings.DYNAMODB_ENDPOINT ? { dynamodbEndpoint: settings.DYNAMODB_ENDPOINT } : {}),
    ...(settings.AWS_REGION ? { region: settings.AWS_REGION } : {}),
    ...(settings.CURSOR_SECRET ? { cursorSecret: settings.CURSOR_SECRET } : {}),
    ...(settings.EDGE_HOSTNAME ? { edgeHostname: settings.EDGE_HOSTNAME } : {}),
    ...(settings.EDGE_ROUTING_ENDPOINT ? { edgeRoutingEndpoint: settings.EDGE_ROUTING_ENDPOINT } : {}),
  };
}
