/**
 * Assertions on the synthesized template of each stage (no AWS access): functions and their bundles,
 * least-privilege grants, the API's routes, authorizer and gateway responses, the table, alarms, the webhook
 * deliveries, the template's size and cdk-nag. Each stage is synthesized (and bundled) once for the whole file.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_FILE } from '#infra/bundles.ts';
import { functionEntry } from '#infra/bundling.ts';
import { DOMAIN_CHECKS_TIMEOUT, domainChecksFunction } from '#infra/constructs/domain-recheck.ts';
import { EDGE_SYNC_TIMEOUT, edgeSyncFunction } from '#infra/constructs/edge.ts';
import { EDGE_SWEEP_EVERY, edgeSweepFunction, sweepTimeout } from '#infra/constructs/edge-sweep.ts';
import { MAPPING_TEMPLATE_MAX_BYTES, PAYLOAD_MAX_BYTES } from '#infra/constructs/mapping-templates.ts';
import {
  WEBHOOK_DELIVER_TIMEOUT,
  webhookDeliverFunction,
  webhookFanoutFunction,
} from '#infra/constructs/webhook-delivery.ts';
import { edgeFunctionSource } from '#infra/edge-function.ts';
import { matchRoute } from '#infra/local/routing.ts';
import { type StageName, stages } from '#infra/stages.ts';
import { MAX_BODY_BYTES } from '#lib/http/body.ts';
import { errorBody } from '#lib/http/errors.ts';
import { gatewayResponses } from '#lib/http/gateway-responses.ts';
import { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS } from '#lib/http/headers.ts';
import { OPENAPI_FILE } from '#lib/openapi/files.ts';
import { type Config, ConfigError, loadConfig } from '#lib/platform/config.ts';
import {
  apiPaths,
  authorizerHandler,
  documentRoute,
  eventPublisherHandler,
  routeMethods,
  routes,
  unknownPathPreflights,
} from '#lib/routes.ts';
import {
  DEFAULT_RETRY_DELAYS,
  JITTER_RATIO,
  MAX_VISIBILITY_MS,
  SQS_MAX_VISIBILITY_MS,
  totalDelayMs,
  VISIBILITY_MARGIN_MS,
} from '#lib/webhooks/rules/schedule.ts';
import { DELIVERY_TIMEOUT_MS } from '#lib/webhooks/send.ts';
import { edgeSyncActions, type ResourceForm } from './cloudfront-actions.ts';
import { edgeSweepActions, type SweepResourceForm } from './edge-sweep-actions.ts';
import { assemblyDir, type Synthesized, synthesize } from './synth.ts';

/** The DynamoDB actions each function issues (read off `lib/data`), written out independently of the stack. */
const expectedTableActions: Record<string, string[]> = {
  authorizer: ['GetItem', 'UpdateItem'],
  'list-domains': ['GetItem', 'Query'],
  'list-spaces': ['GetItem', 'Query'],
  'list-events': ['GetItem', 'Query'],
  // The owner's feed head (its plan) and a Query of its counters, on the table.
  'show-account': ['GetItem', 'Query'],
  'show-domain': ['GetItem'],
  'show-space': ['GetItem'],
  'store-domain': ['ConditionCheckItem', 'GetItem', 'PutItem', 'UpdateItem'],
  'store-space': ['GetItem', 'PutItem', 'UpdateItem'],
  'update-domain': ['ConditionCheckItem', 'GetItem', 'PutItem', 'UpdateItem'],
  'update-space': ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
  'destroy-domain': ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
  'destroy-space': ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
  'verify-domain': ['ConditionCheckItem', 'GetItem', 'PutItem', 'UpdateItem'],
  'list-webhooks': ['GetItem', 'Query'],
  'store-webhook': ['GetItem', 'PutItem', 'UpdateItem'],
  'show-webhook': ['GetItem'],
  'update-webhook': ['GetItem', 'PutItem', 'UpdateItem'],
  'destroy-webhook': ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
  'rotate-secret-webhook': ['GetItem', 'PutItem', 'UpdateItem'],
  // One attempt: the webhook read, the attempt recorded, the run of failures kept (a disabling is a change).
  'test-webhook': ['GetItem', 'PutItem', 'UpdateItem'],
  // A webhook's attempts are queried on the table, never the index.
  'deliveries-webhook': ['GetItem', 'Query'],
  'publish-events': [],
  'edge-sync': ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query'],
  // Query on the due-check index only (below): `recheckDomain` is an `updateItem` that may release a guard.
  'recheck-domains': ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
  // The owner's webhooks, one Query on the table (below: not the index); the key line behind each (GetItem); a
  // webhook whose key ended disabled (a change: Put and Update).
  'webhook-fanout': ['GetItem', 'PutItem', 'Query', 'UpdateItem'],
  // The webhook read, the attempt recorded, the run of failures kept; a disabling is a change (Put and Update).
  'webhook-deliver': ['GetItem', 'PutItem', 'UpdateItem'],
};

/** Functions that query the by-name index: the collections' lists (the feed queries the table only). */
const indexReaders = ['list-domains', 'list-spaces', 'list-webhooks'];
/** The change feed's publisher is no route and has no table: the pipe reads the stream. */
const PUBLISHER = 'publish-events';
/** The edge sync is no route either: an EventBridge rule sends it the domain events of the bus. */
const EDGE_SYNC = edgeSyncFunction.name;
/** A list as `Fn.join(',', …)` synthesizes it. */
const commaList = (items: unknown[]) => (items.length === 1 ? items[0] : { 'Fn::Join': [',', items] });
/** The edge sweep: no route, EventBridge Scheduler invokes it; its table access is its cursor only (below). */
const SWEEP = edgeSweepFunction.name;
/** The hourly re-check of active domains: no route either, EventBridge Scheduler invokes it. */
const RECHECK = domainChecksFunction.name;
/** The webhooks' fan-out (an EventBridge rule's target) and delivery (an SQS event source's): no routes. */
const FANOUT = webhookFanoutFunction.name;
const DELIVER = webhookDeliverFunction.name;
/** The functions of the webhook deliveries, which are given the delivery queue. */
const webhookWorkers: readonly string[] = [FANOUT, DELIVER];
/** The functions that sign page cursors: the collections' lists and a webhook's deliveries (not the feed). */
const signsCursors = (name: string) =>
  (name.startsWith('list-') && name !== 'list-events') || name === 'deliveries-webhook';
/** The API Gateway integration timeout (29 s) and the delivery attempt's deadline, written out. */
const INTEGRATION_TIMEOUT_SECONDS = 29;
/**
 * The functions that need the edge host name: those that present domains, whose records name it (the domain
 * routes but delete, which answers with the id only; the feed's; the bus publisher), the re-check, which
 * compares CNAME records with it, and the edge sync, which asks DNS whether a domain points at it before it
 * creates the domain's tenant.
 */
const showsDomains = (name: string) =>
  (/-domains?$/.test(name) && name !== 'destroy-domain') ||
  name === 'list-events' ||
  name === PUBLISHER ||
  name === EDGE_SYNC;

/** The source handler of a deployed function, by its id. */
const handlerOf = (name: string) =>
  name === authorizerHandler
    ? authorizerHandler
    : name === PUBLISHER
      ? eventPublisherHandler
      : name === EDGE_SYNC
        ? edgeSyncFunction.handler
        : name === SWEEP
          ? edgeSweepFunction.handler
          : name === RECHECK
            ? domainChecksFunction.handler
            : name === FANOUT
              ? webhookFanoutFunction.handler
              : name === DELIVER
                ? webhookDeliverFunction.handler
                : (routes.find((route) => route.name === name)?.handler ?? name);

/** The limits issue 11 asks for, written out independently of `infra/stages.ts` (requests per 60 s). */
const expectedRateLimits: Record<StageName, { perKey: number; perIp: number }> = {
  dev: { perKey: 300, perIp: 1_500 },
  prod: { perKey: 600, perIp: 3_000 },
};

afterAll(() => rmSync(assemblyDir, { recursive: true, force: true }));

const getAtt = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
const refOf = (value: unknown) => (value as { Ref: string }).Ref;
/** A function's role is given by ARN. */
const roleOf = (fn: Record<string, unknown>) => (fn.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
const integratedFunction = (method: Record<string, unknown>) =>
  JSON.stringify(method.Integration).match(/"Fn::GetAtt":\["([^"]+)","Arn"\]/)?.[1];

describe.each(['dev', 'prod'] as StageName[])('the %s stack', (stage) => {
  const config = stages[stage];
  let s: Synthesized;
  beforeAll(() => {
    s = synthesize(stage);
  }, 180_000);
  const tableId = () => s.only('AWS::DynamoDB::Table')[0];
  /** The stack's queue named `domains-spaces-<stage>-<suffix>`: the dead letters, the webhook deliveries. */
  const queueNamed = (suffix: string) => {
    const named = s
      .ofType('AWS::SQS::Queue')
      .filter(([, q]) => q.Properties.QueueName === `domains-spaces-${stage}-${suffix}`);
    if (named.length !== 1) throw new Error(`Expected one queue ${suffix}, found ${named.length}`);
    return (named[0] as [string, unknown])[0];
  };

  describe('functions', () => {
    it('deploys one function per route plus the authorizer, the event publisher, the edge sync, the re-check and the webhook fan-out and delivery, as nodejs24.x on arm64', () => {
      // Assess
      expect([...s.functions.keys()].sort()).toEqual(
        [
          ...routes.map((route) => route.name),
          'authorizer',
          PUBLISHER,
          EDGE_SYNC,
          SWEEP,
          RECHECK,
          FANOUT,
          DELIVER,
        ].sort(),
      );
      // The re-check runs through every due domain: minutes, not an API call's seconds; a webhook's test and the
      // deliveries wait for a delivery attempt (below).
      const ownTimeouts: Record<string, number> = {
        [RECHECK]: DOMAIN_CHECKS_TIMEOUT.toSeconds(),
        [SWEEP]: sweepTimeout().toSeconds(),
        [EDGE_SYNC]: EDGE_SYNC_TIMEOUT.toSeconds(),
        'test-webhook': 25,
        [DELIVER]: 30,
      };
      for (const [name, fn] of s.functions) {
        expect(fn, name).toMatchObject({
          Runtime: 'nodejs24.x',
          Architectures: ['arm64'],
          Handler: 'index.handler',
          MemorySize: config.functions.memorySize,
          Timeout: ownTimeouts[name] ?? config.functions.timeout.toSeconds(),
          TracingConfig: { Mode: 'Active' },
        });
      }
    });

    it("gives the webhook test route longer than a delivery attempt's deadline, within API Gateway's integration timeout", () => {
      // Prepare
      const timeout = Number(s.functions.get('test-webhook')?.Timeout);
      // Assess: the attempt (10 s) with the reads and writes around it, answered before API Gateway gives up (29 s)
      expect(DELIVERY_TIMEOUT_MS).toBe(10_000);
      expect(timeout).toBeGreaterThan(DELIVERY_TIMEOUT_MS / 1_000);
      expect(timeout).toBeLessThan(INTEGRATION_TIMEOUT_SECONDS);
      // The webhook routes that ask DNS (store, update) keep the stage's, above two DNS tries (2 s each)
      for (const name of ['store-webhook', 'update-webhook']) {
        expect(Number(s.functions.get(name)?.Timeout), name).toBeGreaterThanOrEqual(6);
      }
    });

    it('bundles each function from its own handler, as minified CommonJS with source maps and the SDK inside', () => {
      const handlers = new Map<string, string>([
        ...routes.map((r) => [r.name, r.handler] as const),
        ['authorizer', 'authorizer'],
        [PUBLISHER, eventPublisherHandler],
        [EDGE_SYNC, edgeSyncFunction.handler],
        [SWEEP, edgeSweepFunction.handler],
        [RECHECK, domainChecksFunction.handler],
        [FANOUT, webhookFanoutFunction.handler],
        [DELIVER, webhookDeliverFunction.handler],
      ]);
      for (const [name, fn] of s.functions) {
        // Act
        const dir = s.bundleDir(fn);
        const code = readFileSync(join(dir, BUNDLE_FILE), 'utf8');
        const { sources } = JSON.parse(readFileSync(join(dir, `${BUNDLE_FILE}.map`), 'utf8')) as { sources: string[] };
        const own = sources.filter((source) => !source.includes('node_modules'));
        const entries = own.flatMap((source) => source.match(/(?:^|\/)functions\/(.+)\.ts$/)?.[1] ?? []);
        // Assess
        expect(entries, name).toEqual([handlers.get(name)]);
        // CommonJS, as measured faster to initialise (infra/bundling.ts): exports, no ES-module syntax.
        expect(code, name).toMatch(/module\.exports/);
        expect(code, name).not.toMatch(/^import[{ ]|\bimport\.meta\b/m);
        // Minified: long lines (the publisher's small bundle is a handful of lines in all).
        const lines = code.split('\n').length;
        expect(code.length / lines > 2_000 || lines <= 10, `${name} is minified (${lines} lines)`).toBe(true);
        // The publisher only unmarshalls stream records: no client.
        const sdk = name === PUBLISHER ? '@aws-sdk/util-dynamodb/' : '@aws-sdk/client-dynamodb/';
        expect(
          sources.some((source) => source.includes(`node_modules/${sdk}`)),
          name,
        ).toBe(true);
        expect(code, `${name} imports no SDK from the runtime`).not.toMatch(/from\s*["']@aws-sdk\/client-dynamodb/);
      }
    });

    it('gives each function only the configuration it reads, with the cursor key as a dynamic reference', () => {
      for (const [name, fn] of s.functions) {
        // Prepare
        const env = (fn.Environment as { Variables: Record<string, unknown> }).Variables;
        const edgeHostname = showsDomains(name) ? ['EDGE_HOSTNAME'] : [];
        // Assess
        expect(env.NODE_OPTIONS, name).toBe('--enable-source-maps');
        if (name === PUBLISHER) {
          expect(Object.keys(env).sort(), name).toEqual(['EDGE_HOSTNAME', 'NODE_OPTIONS']);
          continue;
        }
        expect(env.TABLE_NAME, name).toEqual({ Ref: tableId() });
        if (webhookWorkers.includes(name)) {
          // The fan-out reads up to the largest webhook limit of the stage's plans.
          const plans = name === FANOUT ? ['PLANS'] : [];
          expect(Object.keys(env).sort(), name).toEqual(
            ['NODE_OPTIONS', 'TABLE_NAME', 'WEBHOOK_QUEUE_URL', ...plans].sort(),
          );
          expect(env.WEBHOOK_QUEUE_URL, name).toEqual({ Ref: queueNamed('webhook-deliveries') });
          continue;
        }
        if (name === EDGE_SYNC) {
          expect(Object.keys(env).sort(), name).toEqual(
            [
              'EDGE_CONNECTION_GROUP_ID',
              'EDGE_DISTRIBUTION_ID',
              'EDGE_HOSTNAME',
              'EDGE_KVS_ARN',
              'EDGE_SHARD_CAPACITY',
              'EDGE_TENANT_PREFIX',
              'NODE_OPTIONS',
              'TABLE_NAME',
            ].sort(),
          );
          continue;
        }
        if (name === SWEEP) {
          expect(Object.keys(env).sort(), name).toEqual(
            [
              'EDGE_CONNECTION_GROUP_ID',
              'EDGE_DISTRIBUTION_IDS',
              'EDGE_KVS_ARNS',
              'EDGE_TENANT_PREFIX',
              'NODE_OPTIONS',
              'TABLE_NAME',
            ].sort(),
          );
          continue;
        }
        const cursors = signsCursors(name);
        const answers = name !== authorizerHandler && name !== RECHECK; // a route's handler answers the client: CORS
        // The plans go where limits are enforced or shown; the authorizer states the per-key rate limit.
        const plans = routes.find((route) => route.name === name)?.settings?.includes('PLANS') ? ['PLANS'] : [];
        const rate = name === authorizerHandler ? ['RATE_LIMIT_PER_KEY_PER_MINUTE'] : [];
        expect(Object.keys(env).sort(), name).toEqual(
          [
            'NODE_OPTIONS',
            'TABLE_NAME',
            ...(cursors ? ['CURSOR_SECRET'] : []),
            ...(answers ? ['CORS_ALLOWED_ORIGINS'] : []),
            ...edgeHostname,
            ...plans,
            ...rate,
          ].sort(),
        );
        if (plans.length > 0) expect(JSON.parse(env.PLANS as string), name).toEqual(config.plans);
        if (rate.length > 0)
          expect(env.RATE_LIMIT_PER_KEY_PER_MINUTE, name).toBe(String(config.rateLimit.perKeyPerMinute));
        if (answers) expect(env.CORS_ALLOWED_ORIGINS, name).toBe('*');
        if (env.CURSOR_SECRET) expect(JSON.stringify(env.CURSOR_SECRET)).toContain('{{resolve:secretsmanager:');
      }
    });

    it('initialises each function with exactly the environment it is given: without any one setting it fails', async () => {
      for (const [name, fn] of s.functions) {
        // Prepare: the template's values (references, dynamic references) stand in as plain strings: a host
        // name for the edge's (the distribution's domain name), a URL for the others.
        const given = (fn.Environment as { Variables: Record<string, unknown> }).Variables;
        const standIns: Record<string, string> = {
          EDGE_HOSTNAME: 'd111111abcdef8.cloudfront.net',
          EDGE_SHARD_CAPACITY: '30000',
          PLANS: String(given.PLANS),
          RATE_LIMIT_PER_KEY_PER_MINUTE: '300',
        };
        const standIn = (key: string) => standIns[key] ?? `https://${key.toLowerCase()}.test`;
        const env = Object.fromEntries(Object.keys(given).map((key) => [key, standIn(key)]));
        const module = (await import(pathToFileURL(functionEntry(handlerOf(name))).href)) as {
          create: (config: Config) => unknown;
          handler: unknown;
          /** A function with settings of its own exports the loader it binds (the edge sync). */
          load?: (env: Record<string, string>) => Config;
        };
        const load = module.load ?? loadConfig;
        // The publisher has no table, so no configuration of `loadConfig`'s: only its handler is checked here
        // (its one setting, EDGE_HOSTNAME, above).
        if (name === PUBLISHER) {
          expect(module.handler, name).toBeTypeOf('function');
          continue;
        }
        // Act / Assess
        expect(() => module.create(load(env)), name).not.toThrow();
        // CORS_ALLOWED_ORIGINS has a default (`*`, as `npm start` runs): the stack sets it on every handler. So do
        // PLANS (the standard plan alone: the limits before plans), the rate limit the authorizer states (none) and
        // EDGE_SHARD_CAPACITY (the sync's `DEFAULT_SHARD_CAPACITY`).
        const defaulted = [
          'NODE_OPTIONS',
          'CORS_ALLOWED_ORIGINS',
          'PLANS',
          'RATE_LIMIT_PER_KEY_PER_MINUTE',
          'EDGE_SHARD_CAPACITY',
        ];
        const required = (setting: string) => !defaulted.includes(setting);
        for (const key of Object.keys(env).filter(required)) {
          const { [key]: _removed, ...without } = env;
          expect(() => module.create(load(without)), `${name} without ${key}`).toThrow(ConfigError);
        }
      }
    });

    it('writes each function to its own log group with the stage retention', () => {
      for (const fn of s.functions.values()) {
        // Prepare
        const logGroupId = refOf((fn.LoggingConfig as { LogGroup: unknown }).LogGroup);
        const logGroup = s.resources[logGroupId];
        // Assess
        expect(logGroup?.Properties).toMatchObject({
          LogGroupName: `/aws/lambda/${fn.FunctionName}`,
          RetentionInDays: config.logRetention,
        });
      }
    });
  });

  describe('least privilege', () => {
    /**
     * What the edge sync does besides reading the table: write the store, manage tenants (each CloudFront action on
     * the resource form AWS documents for it: cloudfront-actions.ts), dead-letter an event.
     */
    const edgeSyncGrants = () => {
      const forms: Record<ResourceForm, unknown[]> = {
        '*': ['"*"'],
        'distribution-tenant': [expect.stringContaining(':distribution-tenant/*"')],
        // Every shard's store, in shard order.
        'key-value-store': s
          .ofType('AWS::CloudFront::KeyValueStore')
          .map(([id]) => JSON.stringify(getAtt(id)))
          .sort(),
        certificate: [expect.stringContaining(':acm:us-east-1:')],
      };
      return {
        ...Object.fromEntries(edgeSyncActions.map((row) => [row.action, forms[row.resource]])),
        'sqs:SendMessage': [JSON.stringify(getAtt(queueNamed('edge-sync-dead-letters')))],
      };
    };

    /** What the sweep does: its cursor item, each shard's store, the stage's tenants, ACM (edge-sweep-actions.ts). */
    const sweepGrants = () => {
      const forms: Record<SweepResourceForm, unknown[]> = {
        '*': ['"*"'],
        'distribution-tenant': [expect.stringContaining(':distribution-tenant/*"')],
        // Every shard's store.
        'key-value-store': s
          .ofType('AWS::CloudFront::KeyValueStore')
          .map(([id]) => JSON.stringify(getAtt(id)))
          .sort(),
        certificate: [expect.stringContaining(':acm:us-east-1:')],
        table: [JSON.stringify(getAtt(tableId()))],
      };
      return {
        ...Object.fromEntries(edgeSweepActions.map((row) => [row.action, forms[row.resource]])),
        'sqs:SendMessage': [JSON.stringify(getAtt(queueNamed('edge-sync-dead-letters')))],
      };
    };

    /** The fan-out sends jobs to the delivery queue (SendMessageBatch), and a failed event to its dead letters. */
    const fanoutGrants = () => ({
      'sqs:SendMessage': [
        JSON.stringify(getAtt(queueNamed('webhook-deliveries'))),
        JSON.stringify(getAtt(queueNamed('webhook-fanout-dead-letters'))),
      ].sort(),
    });
    /** The delivery's event source consumes the queue; ChangeMessageVisibility also hides a job until its retry. */
    const deliverGrants = () => {
      const queue = [JSON.stringify(getAtt(queueNamed('webhook-deliveries')))];
      return Object.fromEntries(
        [
          'sqs:ChangeMessageVisibility',
          'sqs:DeleteMessage',
          'sqs:GetQueueAttributes',
          'sqs:GetQueueUrl',
          'sqs:ReceiveMessage',
        ].map((action) => [action, queue]),
      );
    };

    it('allows each function exactly its DynamoDB actions on the table (and index for Query), its logs and X-Ray', () => {
      const table = JSON.stringify(getAtt(tableId()));
      const index = JSON.stringify({ 'Fn::Join': ['', [getAtt(tableId()), '/index/byName']] });
      const dueIndex = JSON.stringify({ 'Fn::Join': ['', [getAtt(tableId()), '/index/byCheckDue']] });
      for (const [name, fn] of s.functions) {
        // Prepare
        const logGroup = JSON.stringify(getAtt(refOf((fn.LoggingConfig as { LogGroup: unknown }).LogGroup)));
        const expected: Record<string, string[]> = {
          'logs:CreateLogStream': [logGroup],
          'logs:PutLogEvents': [logGroup],
          'xray:PutTelemetryRecords': ['"*"'],
          'xray:PutTraceSegments': ['"*"'],
        };
        for (const action of expectedTableActions[name] ?? []) {
          expected[`dynamodb:${action}`] =
            action === 'Query' && indexReaders.includes(name) ? [table, index].sort() : [table];
        }
        // Act
        const grants = s.grants(roleOf(fn));
        // Assess
        const recheckGrants = {
          'dynamodb:Query': [dueIndex],
          'sqs:SendMessage': [JSON.stringify(getAtt(queueNamed('domain-checks-dead-letters')))],
        };
        const own =
          name === EDGE_SYNC
            ? edgeSyncGrants()
            : name === SWEEP
              ? sweepGrants()
              : name === RECHECK
                ? recheckGrants
                : name === FANOUT
                  ? fanoutGrants()
                  : name === DELIVER
                    ? deliverGrants()
                    : {};
        expect(grants, name).toEqual({ ...expected, ...own });
      }
    });

    it('never grants Scan, a DynamoDB wildcard, or any wildcard resource outside X-Ray and the edge’s documented ones', () => {
      for (const [, policy] of s.ofType('AWS::IAM::Policy')) {
        const text = JSON.stringify(policy.Properties);
        expect(text).not.toMatch(/dynamodb:(\*|Scan)/);
        expect(text).not.toContain('/index/*');
      }
      for (const [name, fn] of s.functions) {
        const wildcards = Object.entries(s.grants(roleOf(fn))).filter(([, resources]) =>
          resources.some((resource) => resource.includes('*')),
        );
        // The edge sync's tenants are created at run time (their ids are unknown when deploying), and what the
        // Service Authorization Reference allows only on "*".
        const tenants = edgeSyncActions.filter((row) => row.resource !== 'key-value-store').map((row) => row.action);
        const swept = edgeSweepActions
          .filter((row) => ['*', 'distribution-tenant', 'certificate'].includes(row.resource))
          .map((row) => row.action);
        expect(wildcards.map(([action]) => action).sort(), name).toEqual(
          [
            ...(name === EDGE_SYNC ? tenants : []),
            ...(name === SWEEP ? swept : []),
            'xray:PutTelemetryRecords',
            'xray:PutTraceSegments',
          ].sort(),
        );
      }
    });
  });

  describe('API', () => {
    const methods = () =>
      s.ofType('AWS::ApiGateway::Method').map(([, method]) => ({
        method: method.Properties.HttpMethod as string,
        path: s.resourcePath(method.Properties.ResourceId),
        props: method.Properties,
      }));

    /** The methods that call a function (Lambda proxy), and those API Gateway answers itself (mock). */
    const proxied = () => methods().filter(({ props }) => (props.Integration as { Type: string }).Type === 'AWS_PROXY');
    const mocked = () => methods().filter(({ props }) => (props.Integration as { Type: string }).Type === 'MOCK');
    /** The methods API Gateway answers from an S3 object (an AWS service integration): the document's. */
    const fromS3 = () => methods().filter(({ props }) => (props.Integration as { Type: string }).Type === 'AWS');
    /** A mock method's one answer: status, header mappings, template. */
    const mockAnswer = (props: Record<string, unknown>) => {
      const integration = props.Integration as {
        IntegrationResponses: { StatusCode: string; ResponseParameters: Record<string, string> }[];
        PassthroughBehavior: string;
        RequestTemplates: Record<string, string>;
        ContentHandling?: string;
      };
      const [response, ...others] = integration.IntegrationResponses as {
        StatusCode: string;
        ResponseParameters: Record<string, string>;
        ResponseTemplates: Record<string, string>;
      }[];
      expect(others).toEqual([]);
      const headers = Object.fromEntries(
        Object.entries(response?.ResponseParameters ?? {}).map(([key, value]) => [
          key.replace('method.response.header.', ''),
          value,
        ]),
      );
      const declared = (
        props.MethodResponses as { StatusCode: string; ResponseParameters: Record<string, boolean> }[]
      )[0];
      return {
        integration,
        status: response?.StatusCode,
        headers,
        template: response?.ResponseTemplates['application/json'],
        declared,
      };
    };
    /** What a literal template outputs (`literalTemplate` read back). */
    const literalOf = (template = '') =>
      template
        .replace("#set($D = '$')#set($H = '#')", '')
        .replace(/\$\{([DH])\}/g, (_, name) => (name === 'D' ? '$' : '#'));

    it('serves exactly the routes of lib/routes.ts, HEAD beside GET, each integrated with the function the local gateway runs', () => {
      // Prepare
      const expected = routes.flatMap((route) => routeMethods(route).map((method) => `${method} ${route.path}`));
      // Act
      const synthesized = proxied();
      // Assess
      expect(synthesized.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(expected.sort());
      // The lists and items of domains, spaces and webhooks, the feed, a webhook's deliveries, and the account.
      expect(expected.filter((entry) => entry.startsWith('HEAD '))).toHaveLength(9);
      for (const { method, path, props } of synthesized) {
        const local = matchRoute(method, path.replace('{id}', '42'));
        expect(props.Integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
        expect(integratedFunction(props), `${method} ${path}`).toBe(s.functions.get(local?.route.name ?? '')?.id);
      }
      // HEAD calls the very function GET calls
      for (const head of synthesized.filter(({ method }) => method === 'HEAD')) {
        const get = synthesized.find(({ method, path }) => method === 'GET' && path === head.path);
        expect(integratedFunction(head.props), head.path).toBe(integratedFunction(get?.props ?? {}));
      }
    });

    it('declares no binary media types: bodies reach the functions as text, and its own answers stay text', () => {
      // Prepare
      const [, api] = s.only('AWS::ApiGateway::RestApi');
      // Assess: with application/json binary, API Gateway would convert its mock and S3 answers by the request's
      // Accept (lib/http/body.ts says why); the functions refuse U+FFFD, API Gateway's stand-in for bad bytes
      expect(api.Properties.BinaryMediaTypes).toBeUndefined();
      for (const { props } of proxied())
        expect((props.Integration as Record<string, unknown>).ContentHandling).toBeUndefined();
    });

    it('puts the REQUEST authorizer on every method that calls a function, keyed on the Authorization header', () => {
      // Prepare
      const [authorizerId, authorizer] = s.only('AWS::ApiGateway::Authorizer');
      // Assess
      expect(authorizer.Properties).toMatchObject({
        Type: 'REQUEST',
        IdentitySource: 'method.request.header.Authorization',
        AuthorizerResultTtlInSeconds: config.api.authorizerCacheTtl.toSeconds(),
        AuthorizerUri: { 'Fn::Join': ['', expect.arrayContaining([getAtt(s.functions.get('authorizer')?.id ?? '')])] },
      });
      for (const { props } of proxied()) {
        expect(props).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId } });
      }
    });

    it('answers without a key, by API Gateway itself, only OPTIONS and ANY on each path, the document, and OPTIONS on the rest of the base path', () => {
      // Prepare
      const expected = [
        ...apiPaths.flatMap((path) => [`OPTIONS ${path.path}`, `ANY ${path.path}`]),
        ...unknownPathPreflights.map((path) => `OPTIONS ${path}`),
      ];
      // Act
      const synthesized = mocked();
      const document = fromS3();
      // Assess: mock answers, and the document read from S3
      expect(synthesized.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(expected.sort());
      expect(document.map(({ method, path }) => `${method} ${path}`).sort()).toEqual([
        `GET ${documentRoute.path}`,
        `HEAD ${documentRoute.path}`,
      ]);
      expect(synthesized.length + document.length + proxied().length).toBe(methods().length);
      for (const { method, path, props } of [...synthesized, ...document]) {
        expect(props.AuthorizationType, `${method} ${path}`).toBe('NONE');
        expect(props.AuthorizerId, `${method} ${path}`).toBeUndefined();
        // Any body of another media type is refused (415), never passed to the integration
        const integration = props.Integration as { PassthroughBehavior: string; RequestTemplates: object };
        expect(integration.PassthroughBehavior).toBe('NEVER');
        expect(Object.keys(integration.RequestTemplates).sort()).toEqual([
          'application/json',
          'application/x-www-form-urlencoded',
        ]);
      }
      // Paths the table does not have have only the preflight: API Gateway answers their other methods 404.
      const withMethods = new Set(methods().map(({ path }) => path));
      expect([...withMethods].sort()).toEqual([...apiPaths.map((path) => path.path), ...unknownPathPreflights].sort());
    });

    it('answers the preflight on any path under the base path it does not have: every method of the API', () => {
      // Prepare: the base path and a greedy resource under it and under each path without a variable child.
      expect(unknownPathPreflights).toEqual([
        '/api/v1',
        '/api/v1/{proxy+}',
        '/api/v1/domains/{id}/{proxy+}',
        '/api/v1/domains/{id}/verify/{proxy+}',
        '/api/v1/spaces/{id}/{proxy+}',
        '/api/v1/webhooks/{id}/{proxy+}',
        '/api/v1/webhooks/{id}/rotate-secret/{proxy+}',
        '/api/v1/webhooks/{id}/test/{proxy+}',
        '/api/v1/webhooks/{id}/deliveries/{proxy+}',
        '/api/v1/events/{proxy+}',
        '/api/v1/account/{proxy+}',
        '/api/v1/openapi.json/{proxy+}',
      ]);
      for (const path of unknownPathPreflights) {
        // Act
        const preflight = mocked().find(({ method, path: at }) => method === 'OPTIONS' && at === path);
        const { status, headers, template } = mockAnswer(preflight?.props ?? {});
        // Assess
        expect(status, path).toBe('204');
        expect(headers, path).toEqual({
          Allow: "'OPTIONS'",
          'Access-Control-Allow-Origin': "'*'",
          'Access-Control-Allow-Methods': "'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'",
          'Access-Control-Allow-Headers': `'${CORS_ALLOW_HEADERS.join(', ')}'`,
          'Access-Control-Max-Age': "'600'",
          'X-Request-Id': 'context.requestId',
        });
        expect(template, path).toBe('');
      }
    });

    it('answers the CORS preflight on every path: 204, its methods, the allowed headers, Max-Age 600, its request id', () => {
      for (const path of apiPaths) {
        // Act
        const preflight = mocked().find(({ method, path: at }) => method === 'OPTIONS' && at === path.path);
        const { status, headers, template, declared } = mockAnswer(preflight?.props ?? {});
        // Assess
        expect(status, path.path).toBe('204');
        expect(headers, path.path).toEqual({
          Allow: `'${path.methods.join(', ')}'`,
          'Access-Control-Allow-Origin': "'*'",
          'Access-Control-Allow-Methods': `'${path.methods.join(', ')}'`,
          'Access-Control-Allow-Headers': `'${CORS_ALLOW_HEADERS.join(', ')}'`,
          'Access-Control-Max-Age': "'600'",
          'X-Request-Id': 'context.requestId',
        });
        expect(template, path.path).toBe('');
        expect(declared?.StatusCode).toBe('204');
        expect(Object.keys(declared?.ResponseParameters ?? {}).length).toBe(Object.keys(headers).length);
      }
    });

    it('answers 405 with Allow, the JSON error and its request id to any other method of every path', () => {
      for (const path of apiPaths) {
        // Act
        const any = mocked().find(({ method, path: at }) => method === 'ANY' && at === path.path);
        const { status, headers, template } = mockAnswer(any?.props ?? {});
        // Assess
        expect(status, path.path).toBe('405');
        expect(headers, path.path).toEqual({
          Allow: `'${path.methods.join(', ')}'`,
          'Access-Control-Allow-Origin': "'*'",
          'Access-Control-Expose-Headers': `'${CORS_EXPOSE_HEADERS.join(', ')}'`,
          'X-Request-Id': 'context.requestId',
        });
        expect(JSON.parse(literalOf(template))).toEqual(errorBody('methodNotAllowed'));
        expect(errorBody('methodNotAllowed')).toEqual({ message: 'Method Not Allowed.', status: 405 });
      }
    });

    type S3Integration = {
      Uri: { 'Fn::Join': [string, unknown[]] };
      Credentials: unknown;
      IntegrationHttpMethod: string;
      RequestTemplates: Record<string, string>;
      IntegrationResponses: {
        StatusCode: string;
        SelectionPattern?: string;
        ResponseParameters: Record<string, string>;
        ResponseTemplates?: Record<string, string>;
      }[];
    };
    /** The document's integration for a method, and its answers by status: pattern, headers, template. */
    const documentIntegration = (method: string) => {
      const found = fromS3().find(({ method: m, path }) => m === method && path === documentRoute.path);
      const integration = found?.props.Integration as S3Integration;
      const answers = Object.fromEntries(
        integration.IntegrationResponses.map((response) => [
          response.StatusCode,
          {
            pattern: response.SelectionPattern,
            headers: Object.fromEntries(
              Object.entries(response.ResponseParameters).map(([key, value]) => [
                key.replace('method.response.header.', ''),
                value,
              ]),
            ),
            template: response.ResponseTemplates?.['application/json'],
          },
        ]),
      );
      return { props: found?.props ?? {}, integration, answers };
    };
    /** A value of the template as text: a join's parts, `${Name}` for a reference, a substitution's pattern. */
    const textOf = (value: unknown): string => {
      if (typeof value === 'string') return value;
      const token = value as { 'Fn::Join'?: [string, unknown[]]; Ref?: string; 'Fn::Sub'?: string };
      if (token['Fn::Join']) return token['Fn::Join'][1].map(textOf).join(token['Fn::Join'][0]);
      if (token.Ref) return `\${${token.Ref}}`;
      if (token['Fn::Sub']) return token['Fn::Sub'];
      throw new Error(`Not text: ${JSON.stringify(value)}`);
    };
    /** The bootstrap bucket CDK uploads file assets to (the default synthesizer's, in the stack's region). */
    const assetsBucket = () => `cdk-hnb659fds-assets-\${AWS::AccountId}-${textOf(s.stack.resolve(s.stack.region))}`;
    /** The S3 object an integration reads (`arn:<partition>:apigateway:<region>:s3:path/<bucket>/<key>`). */
    const objectOf = (integration: S3Integration) => {
      const [, prefix, bucket, key] = /^(.*:s3:path\/)([^/]+)\/([^/]+)$/.exec(textOf(integration.Uri)) ?? [];
      return { prefix, bucket, key };
    };

    it('serves the OpenAPI document to GET and HEAD without a key from one S3 object (GetObject, HeadObject), cacheable, with the same headers', () => {
      for (const method of ['GET', 'HEAD']) {
        // Act
        const { integration, answers } = documentIntegration(method);
        // Assess: the S3 action of the method, on the document's object in the bootstrap bucket
        expect(integration.IntegrationHttpMethod, method).toBe(method);
        expect(objectOf(integration), method).toEqual({
          prefix: `${textOf(s.stack.resolve(`arn:${s.stack.partition}:apigateway:${s.stack.region}`))}:s3:path/`,
          bucket: assetsBucket(),
          key: expect.stringMatching(/^[0-9a-f]{64}\.json$/),
        });
        expect(objectOf(integration).key, method).toBe(objectOf(documentIntegration('GET').integration).key);
        // GetObject and HeadObject take no body: the request templates render nothing (a VTL comment)
        for (const template of Object.values(integration.RequestTemplates)) expect(template).toMatch(/^##[^\n]*$/);
        // The object as S3 answers it, passed through (no template), with the document's headers
        expect(answers['200'], method).toEqual({
          pattern: undefined,
          template: undefined,
          headers: {
            'Content-Type': "'application/json'",
            'Cache-Control': "'public, max-age=300'",
            'Access-Control-Allow-Origin': "'*'",
            'Access-Control-Expose-Headers': `'${CORS_EXPOSE_HEADERS.join(', ')}'`,
            'X-Request-Id': 'context.requestId',
          },
        });
      }
    });

    it("answers GET with the committed document's bytes: the object is the file, uploaded as it is", () => {
      // Prepare
      const { key = '' } = objectOf(documentIntegration('GET').integration);
      const hash = key.replace(/\.json$/, '');
      const manifest = JSON.parse(readFileSync(join(assemblyDir, `domains-spaces-${stage}.assets.json`), 'utf8'));
      // Act
      const uploaded = readFileSync(join(assemblyDir, manifest.files[hash].source.path));
      // Assess: a file asset (not zipped), byte for byte the committed file, under the key the template reads
      expect(manifest.files[hash].source.packaging).toBe('file');
      expect(Object.values(manifest.files[hash].destinations)).toEqual([
        expect.objectContaining({
          objectKey: key,
          bucketName: assetsBucket(),
        }),
      ]);
      expect(uploaded.equals(readFileSync(OPENAPI_FILE))).toBe(true);
      // "Payload size: 10 MB" (REST API quotas): the document leaves more than half of it
      expect(uploaded.length).toBeLessThanOrEqual(PAYLOAD_MAX_BYTES / 2);
    });

    it('reads the document with a role API Gateway assumes, allowed s3:GetObject on that one object and nothing else', () => {
      // Prepare
      const { integration } = documentIntegration('GET');
      const roleId = (integration.Credentials as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      const role = s.resources[roleId];
      const { bucket, key } = objectOf(integration);
      // Assess: both methods use it; it trusts API Gateway; its one inline statement names the object
      expect(documentIntegration('HEAD').integration.Credentials).toEqual(getAtt(roleId));
      expect(role?.Type).toBe('AWS::IAM::Role');
      expect(role?.Properties.AssumeRolePolicyDocument).toMatchObject({
        Statement: [{ Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'apigateway.amazonaws.com' } }],
      });
      expect(role?.Properties.ManagedPolicyArns).toBeUndefined();
      const policies = role?.Properties.Policies as { PolicyName: string; PolicyDocument: { Statement: object[] } }[];
      expect(policies.map((policy) => policy.PolicyName)).toEqual(['read-openapi-document']);
      const statements = policies[0]?.PolicyDocument.Statement as {
        Action: string;
        Effect: string;
        Resource: unknown;
      }[];
      expect(statements.map(({ Action, Effect }) => ({ Action, Effect }))).toEqual([
        { Action: 's3:GetObject', Effect: 'Allow' },
      ]);
      expect(textOf(statements[0]?.Resource)).toBe(
        textOf(s.stack.resolve(`arn:${s.stack.partition}:s3:::${bucket}/${key}`)),
      );
      expect(s.grants(roleId)).toEqual({});
    });

    it("answers S3's refusals (4xx) with the API's 500 and its failures (5xx) with 503 and Retry-After, never S3's XML under a 200", () => {
      for (const method of ['GET', 'HEAD']) {
        // Act
        const { answers } = documentIntegration(method);
        // Assess
        expect(Object.keys(answers).sort(), method).toEqual(['200', '500', '503']);
        const cors = {
          'Access-Control-Allow-Origin': "'*'",
          'Access-Control-Expose-Headers': `'${CORS_EXPOSE_HEADERS.join(', ')}'`,
          'X-Request-Id': 'context.requestId',
        };
        expect(answers['500']?.pattern).toBe('4\\d{2}');
        expect(answers['500']?.headers).toEqual({ 'Content-Type': "'application/json'", ...cors });
        expect(JSON.parse(literalOf(answers['500']?.template))).toEqual({ message: 'Server Error.', status: 500 });
        expect(answers['503']?.pattern).toBe('5\\d{2}');
        expect(answers['503']?.headers).toEqual({
          'Content-Type': "'application/json'",
          'Retry-After': "'1'",
          ...cors,
        });
        expect(JSON.parse(literalOf(answers['503']?.template))).toEqual(errorBody('serviceUnavailable'));
      }
    });

    it("keeps every mapping template within half of API Gateway's 300 KB quota", () => {
      // Prepare: "Maximum mapping template size: 300 KB" (REST API quotas), 1 KB read as 1,000 bytes
      expect(MAPPING_TEMPLATE_MAX_BYTES).toBe(300_000);
      const templates: [string, string][] = [];
      const add = (where: string, entries: Record<string, string> | undefined) => {
        for (const [type, template] of Object.entries(entries ?? {})) templates.push([`${where} ${type}`, template]);
      };
      for (const { method, path, props } of methods()) {
        const integration = props.Integration as {
          RequestTemplates?: Record<string, string>;
          IntegrationResponses?: { StatusCode: string; ResponseTemplates?: Record<string, string> }[];
        };
        add(`${method} ${path} request`, integration.RequestTemplates);
        for (const response of integration.IntegrationResponses ?? []) {
          add(`${method} ${path} ${response.StatusCode}`, response.ResponseTemplates);
        }
      }
      for (const [, response] of s.ofType('AWS::ApiGateway::GatewayResponse')) {
        add(String(response.Properties.ResponseType), response.Properties.ResponseTemplates as Record<string, string>);
      }
      // Act
      const over = templates.filter(([, template]) => Buffer.byteLength(template) > MAPPING_TEMPLATE_MAX_BYTES / 2);
      // Assess: the mocks' and gateway responses' templates were counted, and none is over 150,000 bytes
      expect(templates.length).toBeGreaterThan(apiPaths.length * 2);
      expect(over.map(([where, template]) => `${where}: ${Buffer.byteLength(template)} bytes`)).toEqual([]);
    });

    it('refuses a revoked or expired key within 60 s: the authorizer cache is the revocation bound', () => {
      const [, authorizer] = s.only('AWS::ApiGateway::Authorizer');
      expect(authorizer.Properties.AuthorizerResultTtlInSeconds).toBe(60);
    });

    it("answers API Gateway's own errors in the JSON error contract", () => {
      // Prepare
      const responses = new Map(
        s
          .ofType('AWS::ApiGateway::GatewayResponse')
          .map(([, r]) => [r.Properties.ResponseType as string, r.Properties]),
      );
      const body = (type: string) =>
        JSON.parse(
          (responses.get(type)?.ResponseTemplates as Record<string, string> | undefined)?.['application/json'] ?? '',
        );
      // Assess: the contract the issue spells out
      expect(body('UNAUTHORIZED')).toEqual({ message: 'Unauthenticated.', status: 401 });
      expect(body('ACCESS_DENIED')).toEqual({ message: 'This action is unauthorized.', status: 403 });
      expect(responses.get('ACCESS_DENIED')?.StatusCode).toBe('403');
      expect(responses.get('MISSING_AUTHENTICATION_TOKEN')?.StatusCode).toBe('404');
      expect(responses.get('THROTTLED')?.StatusCode).toBe('429');
      for (const type of ['DEFAULT_4XX', 'DEFAULT_5XX']) {
        expect(body(type)).toEqual({ message: expect.any(String), status: Number(responses.get(type)?.StatusCode) });
      }
      // Assess: every answer the local gateway gives, alike
      expect([...responses.keys()].sort()).toEqual(Object.keys(gatewayResponses).sort());
      for (const [type, { statusCode, message, ...rest }] of Object.entries(gatewayResponses)) {
        const headers = { 'Content-Type': 'application/json', ...('headers' in rest ? rest.headers : {}) };
        expect(responses.get(type)).toMatchObject({
          StatusCode: String(statusCode),
          ResponseParameters: Object.fromEntries(
            Object.entries(headers).map(([name, value]) => [`gatewayresponse.header.${name}`, `'${value}'`]),
          ),
        });
        expect(body(type)).toEqual({ message, status: statusCode });
      }
    });

    it("maps its request id and the stage's CORS headers into every gateway response", () => {
      for (const [, response] of s.ofType('AWS::ApiGateway::GatewayResponse')) {
        expect(response.Properties.ResponseParameters, String(response.Properties.ResponseType)).toMatchObject({
          'gatewayresponse.header.X-Request-Id': 'context.requestId',
          'gatewayresponse.header.Access-Control-Allow-Origin': "'*'",
          'gatewayresponse.header.Access-Control-Expose-Headers': `'${CORS_EXPOSE_HEADERS.join(', ')}'`,
        });
        expect(response.Properties.ResponseParameters).not.toHaveProperty(
          'gatewayresponse.header.Access-Control-Allow-Credentials',
        );
      }
    });

    it('throttles the stage, traces it and writes JSON access logs', () => {
      // Prepare
      const [, apiStage] = s.only('AWS::ApiGateway::Stage');
      const accessLog = apiStage.Properties.AccessLogSetting as { Format: string };
      // Assess
      expect(apiStage.Properties).toMatchObject({
        StageName: stage,
        TracingEnabled: true,
        MethodSettings: [
          {
            HttpMethod: '*',
            ResourcePath: '/*',
            LoggingLevel: 'ERROR',
            DataTraceEnabled: false,
            ThrottlingRateLimit: config.api.throttle.rateLimit,
            ThrottlingBurstLimit: config.api.throttle.burstLimit,
          },
        ],
      });
      expect(JSON.parse(accessLog.Format)).toMatchObject({
        requestId: '$context.requestId',
        status: '$context.status',
      });
    });
  });

  describe('WAF', () => {
    type Rule = {
      Name: string;
      Priority: number;
      Action?: Record<string, unknown>;
      OverrideAction?: Record<string, unknown>;
      Statement: Record<string, Record<string, unknown>>;
    };
    const webAcl = () => s.only('AWS::WAFv2::WebACL');
    const rules = () => webAcl()[1].Properties.Rules as Rule[];
    const rateRule = (aggregation: string) =>
      rules().filter((rule) => rule.Statement.RateBasedStatement?.AggregateKeyType === aggregation);
    /** What a client gets when a rule blocks: status, headers, and the body WAF sends for its key. */
    const blockAnswer = (rule: Rule) => {
      const response = (rule.Action?.Block as { CustomResponse?: Record<string, unknown> })?.CustomResponse ?? {};
      const bodies = webAcl()[1].Properties.CustomResponseBodies as Record<
        string,
        { Content: string; ContentType: string }
      >;
      const body = bodies[String(response.CustomResponseBodyKey)];
      const headers = (response.ResponseHeaders ?? []) as { Name: string; Value: string }[];
      return {
        status: response.ResponseCode,
        contentType: body?.ContentType,
        body: body && JSON.parse(body.Content),
        headers: Object.fromEntries(headers.map(({ Name, Value }) => [Name.toLowerCase(), Value])),
      };
    };
    const tooManyRequests = {
      status: 429,
      contentType: 'APPLICATION_JSON',
      body: { message: 'Too Many Requests.', status: 429 },
      // WAF answers before API Gateway, with fixed headers: CORS for `*`, no request id (there is none yet)
      headers: {
        'retry-after': expect.stringMatching(/^[1-9]\d*$/),
        'access-control-allow-origin': '*',
        'access-control-expose-headers': CORS_EXPOSE_HEADERS.join(', '),
      },
    };

    it('associates one regional web ACL, allowing by default, with the API stage', () => {
      // Prepare
      const [aclId, acl] = webAcl();
      const [, association] = s.only('AWS::WAFv2::WebACLAssociation');
      const [restApiId] = s.only('AWS::ApiGateway::RestApi');
      const [stageId] = s.only('AWS::ApiGateway::Stage');
      // Assess
      expect(acl.Properties).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
      expect(association.Properties.WebACLArn).toEqual(getAtt(aclId));
      const arn = (association.Properties.ResourceArn as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
      expect(JSON.stringify(arn)).toContain(':apigateway:');
      expect(arn.slice(-4)).toEqual([
        expect.stringMatching(/::\/restapis\/$/),
        { Ref: restApiId },
        '/stages/',
        { Ref: stageId },
      ]);
    });

    it(`limits each key to ${expectedRateLimits[stage].perKey} requests a minute, whatever the spelling of its header, answering 429 JSON`, () => {
      // Act
      const [perKey, ...others] = rateRule('CUSTOM_KEYS');
      // Assess
      expect(others).toEqual([]);
      expect(perKey?.Statement.RateBasedStatement).toEqual({
        AggregateKeyType: 'CUSTOM_KEYS',
        // The key whatever the spelling of the header: `bearer`/`Bearer`, one space or several
        CustomKeys: [
          {
            Header: {
              Name: 'authorization',
              TextTransformations: [
                { Priority: 0, Type: 'COMPRESS_WHITE_SPACE' },
                { Priority: 1, Type: 'LOWERCASE' },
              ],
            },
          },
        ],
        EvaluationWindowSec: 60,
        Limit: expectedRateLimits[stage].perKey,
      });
      expect(blockAnswer(perKey as Rule)).toEqual(tooManyRequests);
    });

    it(`limits each source IP to ${expectedRateLimits[stage].perIp} requests a minute, answering 429 JSON`, () => {
      // Act
      const [perIp, ...others] = rateRule('IP');
      // Assess
      expect(others).toEqual([]);
      expect(perIp?.Statement.RateBasedStatement).toEqual({
        AggregateKeyType: 'IP',
        EvaluationWindowSec: 60,
        Limit: expectedRateLimits[stage].perIp,
      });
      expect(blockAnswer(perIp as Rule)).toEqual(tooManyRequests);
    });

    it('runs the rate rules first, then the AWS managed rule groups, which block', () => {
      // Prepare
      const ordered = [...rules()].sort((a, b) => a.Priority - b.Priority);
      // Assess
      expect(ordered.slice(0, 2).map((rule) => rule.Statement.RateBasedStatement?.AggregateKeyType)).toEqual([
        'CUSTOM_KEYS',
        'IP',
      ]);
      const managed = ordered.slice(2);
      expect(managed.map((rule) => rule.Statement.ManagedRuleGroupStatement?.Name)).toEqual([
        'AWSManagedRulesAmazonIpReputationList',
        'AWSManagedRulesCommonRuleSet',
        'AWSManagedRulesKnownBadInputsRuleSet',
      ]);
      for (const rule of managed) {
        expect(rule.OverrideAction, rule.Name).toEqual({ None: {} });
        expect(rule.Statement.ManagedRuleGroupStatement?.VendorName).toBe('AWS');
      }
    });

    it('lets valid requests through: 64 KiB bodies inspected whole, URL-bearing and body-size rules only count', () => {
      // Prepare
      const overrides = (group: string) =>
        (rules().find((rule) => rule.Name === group)?.Statement.ManagedRuleGroupStatement?.RuleActionOverrides as
          | { Name: string; ActionToUse: unknown }[]
          | undefined) ?? [];
      const inspected = (webAcl()[1].Properties.AssociationConfig as { RequestBody: Record<string, unknown> })
        .RequestBody.API_GATEWAY as { DefaultSizeInspectionLimit: string };
      // Assess: the API's body limit fits the inspection limit
      expect(Number(inspected.DefaultSizeInspectionLimit.replace('KB_', '')) * 1024).toBeGreaterThanOrEqual(
        MAX_BODY_BYTES,
      );
      // Assess: the rules that match > 8 KB bodies, URLs in index_page/not_found_page, and clients without a User-Agent
      expect(overrides('AWSManagedRulesCommonRuleSet')).toEqual(
        [
          'SizeRestrictions_BODY',
          'GenericRFI_BODY',
          'GenericLFI_BODY',
          'EC2MetaDataSSRF_BODY',
          'NoUserAgent_HEADER',
        ].map((name) => ({ Name: name, ActionToUse: { Count: {} } })),
      );
      expect(overrides('AWSManagedRulesKnownBadInputsRuleSet')).toEqual([]);
      expect(overrides('AWSManagedRulesAmazonIpReputationList')).toEqual([]);
    });

    it('logs blocked and counted requests to an aws-waf-logs- group, never the Authorization header', () => {
      // Prepare
      const [aclId, acl] = webAcl();
      const [, logging] = s.only('AWS::WAFv2::LoggingConfiguration');
      const destinations = JSON.stringify(logging.Properties.LogDestinationConfigs);
      const [logGroupId] = Object.entries(s.resources).find(
        ([id, resource]) => resource.Type === 'AWS::Logs::LogGroup' && destinations.includes(`"Ref":"${id}"`),
      ) ?? [''];
      // Assess: the destination
      expect(logging.Properties.ResourceArn).toEqual(getAtt(aclId));
      expect(s.resources[logGroupId]?.Properties).toMatchObject({
        LogGroupName: `aws-waf-logs-domains-spaces-${stage}`,
        RetentionInDays: config.logRetention,
      });
      expect(destinations).not.toContain(':*');
      // Assess: the key never in logs, sampled requests or rate-based rule details
      expect(logging.Properties.RedactedFields).toEqual([{ SingleHeader: { Name: 'authorization' } }]);
      expect(acl.Properties.DataProtectionConfig).toEqual({
        DataProtections: [
          { Field: { FieldType: 'SINGLE_HEADER', FieldKeys: ['authorization'] }, Action: 'SUBSTITUTION' },
        ],
      });
      expect(logging.Properties.LoggingFilter).toMatchObject({
        DefaultBehavior: 'DROP',
        Filters: [{ Behavior: 'KEEP', Conditions: expect.arrayContaining([{ ActionCondition: { Action: 'BLOCK' } }]) }],
      });
    });

    it('alarms on the requests the web ACL blocks', () => {
      // Prepare
      const acl = webAcl()[1].Properties;
      const alarm = s
        .ofType('AWS::CloudWatch::Alarm')
        .map(([, resource]) => resource.Properties)
        .find((props) => props.AlarmName === `domains-spaces-${stage}-waf-blocked-requests`);
      const [topicId] = s.only('AWS::SNS::Topic');
      // Assess
      expect(alarm).toMatchObject({
        Namespace: 'AWS/WAFV2',
        MetricName: 'BlockedRequests',
        Statistic: 'Sum',
        Threshold: config.alarms.wafBlockedRequests,
        AlarmActions: [{ Ref: topicId }],
      });
      expect(alarm?.Dimensions).toEqual(
        expect.arrayContaining([
          { Name: 'WebACL', Value: (acl.VisibilityConfig as { MetricName: string }).MetricName },
          { Name: 'Rule', Value: 'ALL' },
          { Name: 'Region', Value: expect.anything() },
        ]),
      );
    });
  });

  describe('table', () => {
    it('is the shared single-table definition, on demand and encrypted', () => {
      s.template.hasResourceProperties('AWS::DynamoDB::Table', {
        TableName: `domains-spaces-${stage}`,
        BillingMode: 'PAY_PER_REQUEST',
        SSESpecification: { SSEEnabled: true },
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        LocalSecondaryIndexes: [
          {
            IndexName: 'byName',
            KeySchema: [
              { AttributeName: 'pk', KeyType: 'HASH' },
              { AttributeName: 'lsi1sk', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      });
    });

    it(`${stage === 'prod' ? 'keeps' : 'does not keep'} data: PITR, deletion protection and retention`, () => {
      const prod = stage === 'prod';
      s.template.hasResource('AWS::DynamoDB::Table', {
        DeletionPolicy: prod ? 'Retain' : 'Delete',
        Properties: {
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: prod },
          DeletionProtectionEnabled: prod,
        },
      });
    });
  });

  describe('operations', () => {
    it('alarms on API 5XX rate and p99 latency, every function, and DynamoDB throttles and errors', () => {
      // Prepare
      const alarms = s.ofType('AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties);
      const names = alarms.map((alarm) => String(alarm.AlarmName).replace(`domains-spaces-${stage}-`, ''));
      const functionAlarms = [...s.functions.keys()].flatMap((name) => [`${name}-errors`, `${name}-throttles`]);
      // Assess
      expect(names.sort()).toEqual(
        [
          'api-5xx-rate',
          'api-p99-latency',
          'waf-blocked-requests',
          'table-throttled-requests',
          'table-system-errors',
          'events-dead-letters',
          'edge-sync-dead-letters',
          'domain-checks-dead-letters',
          'webhook-dead-letters',
          'webhook-fanout-dead-letters',
          // At 80 % of the edge's quotas (edge-quotas.test.ts).
          'edge-tenants',
          'edge-certificates',
          'edge-store-bytes',
          'edge-shard-hosts',
          ...functionAlarms,
        ].sort(),
      );
      for (const [name, fn] of s.functions) {
        if (name === 'authorizer') continue; // below: its refusals are not failures
        const errors = alarms.find((alarm) => alarm.AlarmName === `domains-spaces-${stage}-${name}-errors`);
        expect(errors).toMatchObject({ MetricName: 'Errors', Dimensions: [{ Value: { Ref: fn.id } }] });
      }
      const [topicId] = s.only('AWS::SNS::Topic');
      for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
      s.template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    });

    it('alarms on the authorizer’s failures, not on the keys it refuses (which Lambda counts as errors)', () => {
      // Prepare
      const authorizer = s.functions.get('authorizer');
      const alarm = s
        .ofType('AWS::CloudWatch::Alarm')
        .map(([, resource]) => resource.Properties)
        .find((props) => props.AlarmName === `domains-spaces-${stage}-authorizer-errors`);
      const filters = s.ofType('AWS::Logs::MetricFilter').map(([, resource]) => resource.Properties);
      const logGroup = s
        .ofType('AWS::Logs::LogGroup')
        .find(([, resource]) => resource.Properties.LogGroupName === `/aws/lambda/domains-spaces-${stage}-authorizer`);
      // Assess: one log line per refusal (what the authorizer logs), counted by a metric filter…
      expect(filters).toEqual([
        {
          LogGroupName: { Ref: logGroup?.[0] },
          FilterPattern: '{ $.message.message = "Authorization refused" }',
          MetricTransformations: [
            { MetricNamespace: `domains-spaces/${stage}`, MetricName: 'authorizer-refusals', MetricValue: '1' },
          ],
        },
      ]);
      // … and subtracted from the function's errors.
      expect(alarm?.Threshold).toBe(config.alarms.functionErrors);
      const metrics = alarm?.Metrics as Record<string, unknown>[];
      expect(metrics.find((metric) => metric.Expression)).toMatchObject({ Expression: 'errors - FILL(refused, 0)' });
      const stat = (id: string) => metrics.find((metric) => metric.Id === id) as { MetricStat: { Metric: object } };
      expect(stat('errors').MetricStat.Metric).toMatchObject({
        MetricName: 'Errors',
        Namespace: 'AWS/Lambda',
        Dimensions: [{ Value: { Ref: authorizer?.id } }],
      });
      expect(stat('refused').MetricStat.Metric).toMatchObject({
        MetricName: 'authorizer-refusals',
        Namespace: `domains-spaces/${stage}`,
      });
    });

    it('outputs the API URL, the table name, the event bus name, the alarm topic and the edge', () => {
      expect(Object.keys(s.template.toJSON().Outputs).sort()).toEqual([
        'AlarmTopicArn',
        'ApiUrl',
        'EdgeConnectionGroupId',
        'EdgeDistributionId',
        'EdgeDistributionIds',
        'EdgeHostname',
        'EdgeRoutingEndpoint',
        'EventBusName',
        'TableName',
      ]);
      s.template.hasOutput('TableName', { Value: { Ref: tableId() } });
      s.template.hasOutput('EventBusName', { Value: { Ref: s.only('AWS::Events::EventBus')[0] } });
    });

    it('names the stack and every named resource after the stage', () => {
      // Prepare
      const nameProps = [
        'FunctionName',
        'TableName',
        'Name',
        'LogGroupName',
        'AlarmName',
        'TopicName',
        'DashboardName',
      ];
      const names = Object.values(s.resources).flatMap((resource) =>
        nameProps.flatMap((prop) =>
          typeof resource.Properties?.[prop] === 'string' ? [resource.Properties[prop]] : [],
        ),
      );
      // Assess
      expect(s.stack.stackName).toBe(`domains-spaces-${stage}`);
      expect(names.length).toBeGreaterThan(30);
      for (const name of names) expect(name).toContain(`domains-spaces-${stage}`);
    });
  });

  describe('change feed', () => {
    const pipe = () => s.only('AWS::Pipes::Pipe')[1].Properties;

    it('keeps the TTL attribute and streams new images of the table', () => {
      s.template.hasResourceProperties('AWS::DynamoDB::Table', {
        TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
        StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
      });
    });

    it('pipes only new event items from the stream, through the publisher, onto the stage event bus', () => {
      // Prepare
      const [busId, bus] = s.only('AWS::Events::EventBus');
      const publisher = s.functions.get(PUBLISHER);
      const props = pipe();
      const source = props.SourceParameters as {
        FilterCriteria: { Filters: { Pattern: string }[] };
        DynamoDBStreamParameters: Record<string, unknown>;
      };
      // Assess
      expect(bus.Properties.Name).toBe(`domains-spaces-${stage}-events`);
      expect(props.Source).toEqual({ 'Fn::GetAtt': [tableId(), 'StreamArn'] });
      expect(props.Enrichment).toEqual(getAtt(publisher?.id as string));
      expect(props.Target).toEqual(getAtt(busId));
      expect(source.FilterCriteria.Filters.map((filter) => JSON.parse(filter.Pattern))).toEqual([
        { eventName: ['INSERT'], dynamodb: { Keys: { sk: { S: [{ prefix: 'EVENT#' }] } } } },
      ]);
      expect(source.DynamoDBStreamParameters).toMatchObject({
        StartingPosition: 'LATEST',
        OnPartialBatchItemFailure: 'AUTOMATIC_BISECT',
        DeadLetterConfig: { Arn: getAtt(queueNamed('events-dead-letters')) },
      });
      expect(props.TargetParameters).toEqual({
        EventBridgeEventBusParameters: { Source: 'domains-spaces', DetailType: 'Change' },
      });
    });

    it('allows the pipe exactly its stream reads, the publisher, the bus and the dead-letter queue', () => {
      // Prepare
      const roleId = (pipe().RoleArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      const role = s.resources[roleId]?.Properties as {
        AssumeRolePolicyDocument: { Statement: { Principal: unknown; Condition: unknown }[] };
        Policies: { PolicyDocument: { Statement: { Action: string | string[]; Resource: unknown }[] } }[];
      };
      const statements = role.Policies.flatMap((policy) => policy.PolicyDocument.Statement);
      const allowed = Object.fromEntries(
        statements.flatMap((statement) => [statement.Action].flat().map((action) => [action, statement.Resource])),
      );
      const stream = { 'Fn::GetAtt': [tableId(), 'StreamArn'] };
      // Assess
      expect(role.AssumeRolePolicyDocument.Statement[0]).toMatchObject({
        Principal: { Service: 'pipes.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': expect.anything() } },
      });
      expect(allowed).toEqual({
        'dynamodb:DescribeStream': stream,
        'dynamodb:GetRecords': stream,
        'dynamodb:GetShardIterator': stream,
        'dynamodb:ListStreams': stream,
        'lambda:InvokeFunction': getAtt(s.functions.get(PUBLISHER)?.id as string),
        'events:PutEvents': getAtt(s.only('AWS::Events::EventBus')[0]),
        'sqs:SendMessage': getAtt(queueNamed('events-dead-letters')),
      });
      expect(s.grants(roleId)).toEqual({});
    });

    it('keeps undeliverable events 14 days, encrypted, and alarms on the first one', () => {
      // Prepare
      const queueId = queueNamed('events-dead-letters');
      const queue = s.resources[queueId] as { Properties: Record<string, unknown> };
      const alarm = s
        .ofType('AWS::CloudWatch::Alarm')
        .map(([, resource]) => resource.Properties)
        .find((props) => props.AlarmName === `domains-spaces-${stage}-events-dead-letters`);
      // Assess
      expect(queue.Properties).toMatchObject({ MessageRetentionPeriod: 14 * 24 * 3600, SqsManagedSseEnabled: true });
      expect(alarm).toMatchObject({
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
        AlarmActions: [{ Ref: s.only('AWS::SNS::Topic')[0] }],
      });
    });
  });

  describe('edge', () => {
    /** Shard 0's resource of a type: the one whose logical id is the edge's from before shards (no `-n`). */
    const shard0 = (type: string, name: string) => {
      const found = s.ofType(type).find(([id]) => new RegExp(`^edge${name}[0-9A-F]{8}$`).test(id));
      if (!found) throw new Error(`No shard 0 ${type}`);
      return found;
    };
    const distribution = () => shard0('AWS::CloudFront::Distribution', 'distribution');
    const distributionConfig = () => distribution()[1].Properties.DistributionConfig as Record<string, unknown>;
    const connectionGroup = () => s.only('AWS::CloudFront::ConnectionGroup');
    const routingEndpoint = () => ({ 'Fn::GetAtt': [connectionGroup()[0], 'RoutingEndpoint'] });
    /** What domain owners point their CNAME at: the stage's edge host name, else its routing endpoint. */
    const edgeHostname = () => config.edge.hostname ?? routingEndpoint();
    const alarmNamed = (name: string) =>
      s
        .ofType('AWS::CloudWatch::Alarm')
        .find(([, alarm]) => alarm.Properties.AlarmName === `domains-spaces-${stage}-${name}`);
    const ruleNamed = (name: string) => {
      const found = s
        .ofType('AWS::Events::Rule')
        .find(([, rule]) => rule.Properties.Name === `domains-spaces-${stage}-${name}`);
      if (!found) throw new Error(`No rule ${name}`);
      return found;
    };

    it("answers every viewer request of one multi-tenant distribution with the function, over the stage's KeyValueStore", () => {
      // Prepare
      const [functionId, fn] = shard0('AWS::CloudFront::Function', 'viewerrequest');
      const [storeId] = shard0('AWS::CloudFront::KeyValueStore', 'store');
      const { hostname: _hostname, anycastIpListId: _list, shards, hostsPerShard: _hosts, ...settings } = config.edge;
      // One function and one store per shard, one connection group.
      expect(s.ofType('AWS::CloudFront::Function')).toHaveLength(shards);
      expect(s.ofType('AWS::CloudFront::KeyValueStore')).toHaveLength(shards);
      expect(s.ofType('AWS::CloudFront::Distribution')).toHaveLength(shards);
      expect(s.ofType('AWS::CloudFront::ConnectionGroup')).toHaveLength(1);
      // Assess: the function file with the stage's settings, published, reading the store
      expect(fn.Properties).toMatchObject({
        AutoPublish: true,
        FunctionCode: edgeFunctionSource(settings),
        FunctionConfig: {
          Runtime: 'cloudfront-js-2.0',
          KeyValueStoreAssociations: [{ KeyValueStoreARN: getAtt(storeId) }],
        },
      });
      // Assess: tenant-only, its one cache behaviour running the function on viewer request
      expect(distributionConfig()).toMatchObject({
        Enabled: true,
        ConnectionMode: 'tenant-only',
        DefaultCacheBehavior: {
          ViewerProtocolPolicy: 'redirect-to-https',
          FunctionAssociations: [
            { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } },
          ],
        },
      });
      expect(distributionConfig().CacheBehaviors).toBeUndefined();
    });

    it("names the API's own host as its origin, over HTTPS: the function answers first, the origin is never called", () => {
      // Prepare
      const [restApiId] = s.only('AWS::ApiGateway::RestApi');
      const [origin, ...others] = distributionConfig().Origins as {
        DomainName: unknown;
        CustomOriginConfig: unknown;
      }[];
      // Assess
      expect(others).toEqual([]);
      expect(JSON.stringify(origin?.DomainName)).toMatch(
        new RegExp(`^\\{"Fn::Join":\\["",\\[\\{"Ref":"${restApiId}"\\},"\\.execute-api\\.`),
      );
      expect(origin?.CustomOriginConfig).toEqual({
        OriginProtocolPolicy: 'https-only',
        OriginSSLProtocols: ['TLSv1.2'],
      });
    });

    it('sends every domain event of the stage bus to the sync; what fails goes to one dead-letter queue, which alarms', () => {
      // Prepare
      const [, rule] = ruleNamed('edge-sync');
      const [busId] = s.only('AWS::Events::EventBus');
      const sync = s.functions.get(EDGE_SYNC);
      const queueId = queueNamed('edge-sync-dead-letters');
      // Assess: the rule's delivery, retried, then dead-lettered
      expect(rule.Properties).toMatchObject({
        EventBusName: { Ref: busId },
        EventPattern: { source: ['domains-spaces'], detail: { type: [{ prefix: 'domain.' }] } },
        Targets: [
          {
            Arn: getAtt(sync?.id as string),
            DeadLetterConfig: { Arn: getAtt(queueId) },
            RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 7200 },
          },
        ],
      });
      // Assess: a sync that fails after Lambda's own retries, to the same queue
      expect(sync?.DeadLetterConfig).toEqual({ TargetArn: getAtt(queueId) });
      expect(alarmNamed('edge-sync-dead-letters')?.[1].Properties).toMatchObject({
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
        Threshold: 0,
        AlarmActions: [{ Ref: s.only('AWS::SNS::Topic')[0] }],
      });
    });

    it('tells every function that presents domains the edge host name, and outputs it with the distribution id', () => {
      // Prepare
      const presenting = [...s.functions].filter(([name]) => showsDomains(name));
      // Assess: the domain routes but delete, the feed, the bus publisher, the re-check and the edge sync
      const domainRoutes = routes.filter(
        (route) => (route.collection === 'domains' && route.action !== 'destroy') || route.collection === 'events',
      );
      expect(presenting.map(([name]) => name).sort()).toEqual(
        [...domainRoutes.map((route) => route.name), PUBLISHER, RECHECK, EDGE_SYNC].sort(),
      );
      for (const [name, fn] of presenting) {
        expect((fn.Environment as { Variables: Record<string, unknown> }).Variables.EDGE_HOSTNAME, name).toEqual(
          edgeHostname(),
        );
      }
      s.template.hasOutput('EdgeHostname', { Value: edgeHostname() });
      s.template.hasOutput('EdgeRoutingEndpoint', { Value: routingEndpoint() });
      s.template.hasOutput('EdgeDistributionId', { Value: { 'Fn::GetAtt': [distribution()[0], 'Id'] } });
    });

    it("has one connection group of the stage's own, whose routing endpoint the sync's tenants are created behind", () => {
      // Prepare
      const [groupId, group] = connectionGroup();
      const sync = s.functions.get(EDGE_SYNC);
      const env = (sync?.Environment as { Variables: Record<string, unknown> } | undefined)?.Variables;
      // Assess
      expect(group.Properties).toMatchObject({
        Name: `domains-spaces-${stage}-edge`,
        Enabled: true,
        Ipv6Enabled: true,
        ...(config.edge.anycastIpListId ? { AnycastIpListId: config.edge.anycastIpListId } : {}),
      });
      expect(env).toMatchObject({
        EDGE_CONNECTION_GROUP_ID: { 'Fn::GetAtt': [groupId, 'Id'] },
        // Every shard's, comma-separated (one shard's alone: CDK writes a join of one as that one).
        EDGE_DISTRIBUTION_ID: commaList(
          s.ofType('AWS::CloudFront::Distribution').map(([id]) => ({ 'Fn::GetAtt': [id, 'Id'] })),
        ),
        EDGE_TENANT_PREFIX: `domains-spaces-${stage}`,
        EDGE_HOSTNAME: edgeHostname(),
      });
    });

    it('watches the edge sync like every function: its alarms and its lines on the dashboard', () => {
      // Prepare
      const [, dashboard] = s.only('AWS::CloudWatch::Dashboard');
      const body = JSON.stringify(dashboard.Properties.DashboardBody);
      const sync = s.functions.get(EDGE_SYNC);
      // Assess
      for (const alarm of ['edge-sync-errors', 'edge-sync-throttles']) {
        const [alarmId] = alarmNamed(alarm) ?? [''];
        expect(body, alarm).toContain(JSON.stringify(getAtt(alarmId)));
      }
      expect(body).toContain(JSON.stringify({ Ref: sync?.id }));
    });
  });

  describe('domain checks', () => {
    const alarmNamed = (name: string) =>
      s
        .ofType('AWS::CloudWatch::Alarm')
        .find(([, alarm]) => alarm.Properties.AlarmName === `domains-spaces-${stage}-${name}`);
    const scheduleNamed = (name: string) => {
      const found = s
        .ofType('AWS::Scheduler::Schedule')
        .find(([, schedule]) => schedule.Properties.Name === `domains-spaces-${stage}-${name}`);
      if (!found) throw new Error(`No schedule ${name}`);
      return found;
    };

    it('invokes the re-check every 5 minutes with EventBridge Scheduler; a run that fails twice more goes to a queue that alarms', () => {
      // Prepare
      const [, schedule] = scheduleNamed('domain-checks');
      const recheck = s.functions.get(RECHECK);
      const queueId = queueNamed('domain-checks-dead-letters');
      // Assess
      expect(schedule.Properties).toMatchObject({
        ScheduleExpression: 'rate(5 minutes)',
        State: 'ENABLED',
        Target: {
          Arn: getAtt(recheck?.id as string),
          DeadLetterConfig: { Arn: getAtt(queueId) },
          RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 300 },
        },
      });
      expect(recheck?.DeadLetterConfig).toEqual({ TargetArn: getAtt(queueId) });
      expect(alarmNamed('domain-checks-dead-letters')?.[1].Properties).toMatchObject({
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
        Threshold: 0,
        AlarmActions: [{ Ref: s.only('AWS::SNS::Topic')[0] }],
      });
    });

    it("lets each schedule's role invoke its function and send to its dead-letter queue, and nothing else", () => {
      const cases = [
        { schedule: 'domain-checks', fn: RECHECK, other: EDGE_SYNC, queue: 'domain-checks-dead-letters' },
        { schedule: 'edge-sweep', fn: SWEEP, other: EDGE_SYNC, queue: 'edge-sync-dead-letters' },
      ];
      for (const { schedule: name, fn, other, queue } of cases) {
        // Prepare
        const [, schedule] = scheduleNamed(name);
        const role = (schedule.Properties.Target as { RoleArn: { 'Fn::GetAtt': [string, string] } }).RoleArn;
        // Act
        const grants = s.grants(role['Fn::GetAtt'][0]);
        // Assess: the function (and its versions), and the dead-letter queue
        expect(Object.keys(grants).sort(), name).toEqual(['lambda:InvokeFunction', 'sqs:SendMessage']);
        expect(JSON.stringify(grants['lambda:InvokeFunction']), name).toContain(s.functions.get(fn)?.id as string);
        expect(JSON.stringify(grants['lambda:InvokeFunction']), name).not.toContain(
          s.functions.get(other)?.id as string,
        );
        expect(grants['sqs:SendMessage'], name).toEqual([JSON.stringify(getAtt(queueNamed(queue)))]);
      }
    });

    it("sweeps the edge with its own function every 5 minutes, inside its timeout; failed runs go to the edge sync's queue", () => {
      // Prepare
      const [, schedule] = scheduleNamed('edge-sweep');
      const sweep = s.functions.get(SWEEP);
      // Assess: runs never overlap (the timeout is inside the interval), and no input: the function needs none
      expect(schedule.Properties).toMatchObject({
        ScheduleExpression: 'rate(5 minutes)',
        Target: {
          Arn: getAtt(sweep?.id as string),
          DeadLetterConfig: { Arn: getAtt(queueNamed('edge-sync-dead-letters')) },
          RetryPolicy: { MaximumRetryAttempts: 2 },
        },
      });
      expect((schedule.Properties.Target as Record<string, unknown>).Input).toBeUndefined();
      expect(Number(sweep?.Timeout)).toBeLessThan(EDGE_SWEEP_EVERY.toSeconds());
      expect(sweep?.DeadLetterConfig).toEqual({ TargetArn: getAtt(queueNamed('edge-sync-dead-letters')) });
    });

    it('watches the re-check like every function: its errors and throttles alarm', () => {
      for (const alarm of ['recheck-domains-errors', 'recheck-domains-throttles']) {
        expect(alarmNamed(alarm), alarm).toBeDefined();
      }
    });
  });

  describe('webhook deliveries', () => {
    const queueOf = (suffix: string) => s.resources[queueNamed(suffix)]?.Properties as Record<string, unknown>;
    const alarmNamed = (name: string) =>
      s
        .ofType('AWS::CloudWatch::Alarm')
        .find(([, alarm]) => alarm.Properties.AlarmName === `domains-spaces-${stage}-${name}`);
    const mapping = () => s.only('AWS::Lambda::EventSourceMapping')[1].Properties;
    /** The attempts the default schedule allows one job (the first, then one per delay), written out. */
    const ATTEMPTS = 8;

    it('queues the jobs encrypted, TLS only, hidden six times the delivery timeout, kept past the whole schedule', () => {
      // Prepare
      const queueId = queueNamed('webhook-deliveries');
      const queue = queueOf('webhook-deliveries');
      const deliver = s.functions.get(DELIVER);
      const retention = Number(queue.MessageRetentionPeriod);
      const policy = s
        .ofType('AWS::SQS::QueuePolicy')
        .find(([, resource]) => JSON.stringify(resource.Properties.Queues) === JSON.stringify([{ Ref: queueId }]));
      // Assess: encryption and TLS
      expect(queue.SqsManagedSseEnabled).toBe(true);
      expect(JSON.stringify(policy?.[1].Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
      // Assess: AWS's advice for a Lambda event source (six times the function's timeout), 30 s each attempt batch
      expect(deliver?.Timeout).toBe(WEBHOOK_DELIVER_TIMEOUT.toSeconds());
      expect(Number(queue.VisibilityTimeout)).toBeGreaterThanOrEqual(6 * Number(deliver?.Timeout));
      // Assess: every delay, jitter at its highest, fits; under the dead letters' 14 days (they keep the enqueue time)
      expect(DEFAULT_RETRY_DELAYS).toHaveLength(ATTEMPTS - 1);
      expect(retention * 1_000).toBeGreaterThan(totalDelayMs(DEFAULT_RETRY_DELAYS) * (1 + JITTER_RATIO));
      expect(retention).toBeLessThan(Number(queueOf('webhook-dead-letters').MessageRetentionPeriod));
    });

    it("moves a job received more often than the schedule's attempts to a dead-letter queue, whose first message alarms", () => {
      // Prepare
      const deadLettersId = queueNamed('webhook-dead-letters');
      // Assess: the 8 attempts of the default schedule, and 2 receives more for a crash or a timeout
      expect(queueOf('webhook-deliveries').RedrivePolicy).toEqual({
        deadLetterTargetArn: getAtt(deadLettersId),
        maxReceiveCount: ATTEMPTS + 2,
      });
      expect(queueOf('webhook-dead-letters')).toMatchObject({
        MessageRetentionPeriod: 14 * 24 * 3600,
        SqsManagedSseEnabled: true,
      });
      expect(alarmNamed('webhook-dead-letters')?.[1].Properties).toMatchObject({
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [deadLettersId, 'QueueName'] } }],
        AlarmActions: [{ Ref: s.only('AWS::SNS::Topic')[0] }],
      });
    });

    it("sends every change of the stage bus to the fan-out; what fails goes to the fan-out's dead-letter queue, which alarms", () => {
      // Prepare
      const [busId] = s.only('AWS::Events::EventBus');
      const rule = s
        .ofType('AWS::Events::Rule')
        .find(([, resource]) => resource.Properties.Name === `domains-spaces-${stage}-webhook-fanout`);
      const fanout = s.functions.get(FANOUT);
      const queueId = queueNamed('webhook-fanout-dead-letters');
      // Assess: the rule's delivery, retried, then dead-lettered
      expect(rule?.[1].Properties).toMatchObject({
        EventBusName: { Ref: busId },
        EventPattern: { source: ['domains-spaces'], 'detail-type': ['Change'] },
        Targets: [
          {
            Arn: getAtt(fanout?.id as string),
            DeadLetterConfig: { Arn: getAtt(queueId) },
            RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 7200 },
          },
        ],
      });
      // Assess: a fan-out that fails after Lambda's own retries, to the same queue
      expect(fanout?.DeadLetterConfig).toEqual({ TargetArn: getAtt(queueId) });
      expect(alarmNamed('webhook-fanout-dead-letters')?.[1].Properties).toMatchObject({
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
        Threshold: 0,
        AlarmActions: [{ Ref: s.only('AWS::SNS::Topic')[0] }],
      });
    });

    it("feeds the delivery function batches of 10 from the queue, with partial failures, at most the stage's concurrency", () => {
      // Prepare
      const deliver = s.functions.get(DELIVER);
      const { deliveryConcurrency } = config.webhooks;
      // Assess
      expect(mapping()).toMatchObject({
        EventSourceArn: getAtt(queueNamed('webhook-deliveries')),
        FunctionName: { Ref: deliver?.id },
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: deliveryConcurrency },
      });
      expect(mapping().MaximumBatchingWindowInSeconds).toBeUndefined();
      // Lambda's range for an SQS event source's maximum concurrency
      expect(deliveryConcurrency).toBeGreaterThanOrEqual(2);
      expect(deliveryConcurrency).toBeLessThanOrEqual(stage === 'prod' ? 10 : 2);
      expect(deliver?.DeadLetterConfig).toBeUndefined();
    });

    it("leaves the hour of SQS's 12 h the delivery keeps for the time between a job's receive and its visibility change", () => {
      // Prepare: the queue as synthesized; what the delivery function sets at most (lib/webhooks/rules/schedule.ts)
      const [, queue] = s.ofType('AWS::SQS::Queue').find(([id]) => id === queueNamed('webhook-deliveries')) ?? [];
      const visibility = Number(queue?.Properties.VisibilityTimeout) * 1_000;
      const timeout = Number(s.functions.get(DELIVER)?.Timeout) * 1_000;
      // Assess: no batching window holds a received job; the attempt ends within the function's timeout, and a
      // job not changed within the queue's visibility timeout is visible again: both well inside the margin
      expect(mapping().MaximumBatchingWindowInSeconds).toBeUndefined();
      expect(timeout).toBeLessThanOrEqual(visibility);
      expect(visibility).toBeLessThanOrEqual(VISIBILITY_MARGIN_MS);
      expect(MAX_VISIBILITY_MS + VISIBILITY_MARGIN_MS).toBe(SQS_MAX_VISIBILITY_MS);
    });

    it('lets the fan-out only its table actions (the webhooks, their keys, a disabling) and send to the queue, and the delivery only its table actions and the queue', () => {
      // Prepare
      const grants = (name: string) => s.grants(roleOf(s.functions.get(name) ?? {}));
      const table = [JSON.stringify(getAtt(tableId()))];
      const queue = [JSON.stringify(getAtt(queueNamed('webhook-deliveries')))];
      const own = (name: string) =>
        Object.fromEntries(Object.entries(grants(name)).filter(([action]) => /^(dynamodb|sqs):/.test(action)));
      // Assess: no index, no other queue action; the dead letters are the fan-out's own (Lambda's asynchronous ones)
      expect(own(FANOUT)).toEqual({
        'dynamodb:GetItem': table,
        'dynamodb:PutItem': table,
        'dynamodb:Query': table,
        'dynamodb:UpdateItem': table,
        'sqs:SendMessage': [...queue, JSON.stringify(getAtt(queueNamed('webhook-fanout-dead-letters')))].sort(),
      });
      expect(own(DELIVER)).toEqual({
        'dynamodb:GetItem': table,
        'dynamodb:PutItem': table,
        'dynamodb:UpdateItem': table,
        'sqs:ChangeMessageVisibility': queue,
        'sqs:DeleteMessage': queue,
        'sqs:GetQueueAttributes': queue,
        'sqs:GetQueueUrl': queue,
        'sqs:ReceiveMessage': queue,
      });
    });

    it('watches the fan-out and the delivery like every function, and shows the queues on the dashboard', () => {
      // Prepare
      const [, dashboard] = s.only('AWS::CloudWatch::Dashboard');
      const body = JSON.stringify(dashboard.Properties.DashboardBody);
      // Assess
      for (const alarm of [`${FANOUT}-errors`, `${FANOUT}-throttles`, `${DELIVER}-errors`, `${DELIVER}-throttles`]) {
        const [alarmId] = alarmNamed(alarm) ?? [''];
        expect(alarmId, alarm).not.toBe('');
        expect(body, alarm).toContain(JSON.stringify(getAtt(alarmId)));
      }
      for (const queue of ['webhook-deliveries', 'webhook-dead-letters', 'webhook-fanout-dead-letters']) {
        expect(body, queue).toContain(JSON.stringify({ 'Fn::GetAtt': [queueNamed(queue), 'QueueName'] }));
      }
    });
  });

  describe('template size', () => {
    /** "Template body size in an Amazon S3 object: 1 MB" (CloudFormation quotas): what `cdk deploy` uploads. */
    const CLOUDFORMATION_TEMPLATE_MAX_BYTES = 1_000_000;

    it("stays under CloudFormation's 1 MB template limit, the document embedded nowhere (S3 holds it)", () => {
      // Prepare: the document's opening as the template would hold it
      const opening = readFileSync(OPENAPI_FILE, 'utf8').slice(0, 100);
      const asHeld = JSON.stringify(opening).slice(1, -1);
      // Act
      const embedded = Object.values(s.resources).filter((resource) =>
        JSON.stringify(resource.Properties ?? {}).includes(asHeld),
      );
      // Assess: in no resource, and the whole template as written to the cloud assembly
      expect(embedded).toEqual([]);
      expect(s.templateBytes).toBeLessThan(CLOUDFORMATION_TEMPLATE_MAX_BYTES);
    });
  });

  it('leaves no cdk-nag finding (AwsSolutions, Serverless) unacknowledged', () => {
    for (const pack of [new AwsSolutionsChecks(), new ServerlessChecks()]) {
      // Act
      const report = pack.validateScope(s.app);
      // Assess
      expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources[0]?.constructPath}`)).toEqual([]);
    }
  });
});
