/**
 * Assertions on the synthesized template of each stage (no AWS access): functions and their bundles,
 * least-privilege grants, the API's routes, authorizer and gateway responses, the table, alarms and cdk-nag.
 * Each stage is synthesized (and bundled) once for the whole file.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions, functionEntry } from '#infra/bundling.ts';
import { type StageName, stages } from '#infra/stages.ts';
import { type Config, ConfigError, loadConfig } from '#lib/config.ts';
import { gatewayResponses } from '#lib/gateway-responses.ts';
import { authorizerHandler, matchRoute, routes } from '#lib/routes.ts';
import { assemblyDir, type Synthesized, synthesize } from './synth.ts';

/** The DynamoDB actions each function issues (read off `lib/data`), written out independently of the stack. */
const expectedTableActions: Record<string, string[]> = {
  authorizer: ['GetItem'],
  'list-domains': ['GetItem', 'Query'],
  'list-spaces': ['GetItem', 'Query'],
  'show-domain': ['GetItem'],
  'show-space': ['GetItem'],
  'store-domain': ['PutItem', 'UpdateItem'],
  'store-space': ['PutItem', 'UpdateItem'],
  'update-domain': ['GetItem', 'UpdateItem'],
  'update-space': ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
  'destroy-domain': ['DeleteItem', 'GetItem', 'UpdateItem'],
  'destroy-space': ['DeleteItem', 'GetItem', 'UpdateItem'],
};

/** The source handler of a deployed function, by its id. */
const handlerOf = (name: string) =>
  name === authorizerHandler ? authorizerHandler : (routes.find((route) => route.name === name)?.handler ?? name);

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

  describe('functions', () => {
    it('deploys one function per route plus the authorizer, as nodejs24.x on arm64', () => {
      // Assess
      expect([...s.functions.keys()].sort()).toEqual([...routes.map((route) => route.name), 'authorizer'].sort());
      for (const fn of s.functions.values()) {
        expect(fn).toMatchObject({
          Runtime: 'nodejs24.x',
          Architectures: ['arm64'],
          Handler: 'index.handler',
          MemorySize: config.functions.memorySize,
          Timeout: config.functions.timeout.toSeconds(),
          TracingConfig: { Mode: 'Active' },
        });
      }
    });

    it('bundles each function from its own handler, as minified ESM with source maps and the SDK inside', () => {
      const handlers = new Map<string, string>([
        ...routes.map((r) => [r.name, r.handler] as const),
        ['authorizer', 'authorizer'],
      ]);
      for (const [name, fn] of s.functions) {
        // Act
        const dir = s.bundleDir(fn);
        const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
        const { sources } = JSON.parse(readFileSync(join(dir, 'index.mjs.map'), 'utf8')) as { sources: string[] };
        const own = sources.filter((source) => !source.includes('node_modules'));
        const entries = own.flatMap((source) => source.match(/(?:^|\/)functions\/(.+)\.ts$/)?.[1] ?? []);
        // Assess
        expect(entries, name).toEqual([handlers.get(name)]);
        expect(code.startsWith(esbuildOptions.banner.js), name).toBe(true);
        expect(code.length / code.split('\n').length, `${name} is minified`).toBeGreaterThan(2_000);
        expect(
          sources.some((source) => source.includes('node_modules/@aws-sdk/client-dynamodb/')),
          name,
        ).toBe(true);
        expect(code, `${name} imports no SDK from the runtime`).not.toMatch(/from\s*["']@aws-sdk\/client-dynamodb/);
      }
    });

    it('gives each function only the configuration it reads, with the cursor key as a dynamic reference', () => {
      for (const [name, fn] of s.functions) {
        // Prepare
        const env = (fn.Environment as { Variables: Record<string, unknown> }).Variables;
        // Assess
        expect(env.TABLE_NAME, name).toEqual({ Ref: tableId() });
        expect(env.NODE_OPTIONS, name).toBe('--enable-source-maps');
        expect(Object.keys(env).sort(), name).toEqual(
          ['NODE_OPTIONS', 'TABLE_NAME', ...(name.startsWith('list-') ? ['CURSOR_SECRET'] : [])].sort(),
        );
        if (env.CURSOR_SECRET) expect(JSON.stringify(env.CURSOR_SECRET)).toContain('{{resolve:secretsmanager:');
      }
    });

    it('initialises each function with exactly the environment it is given: without any one setting it fails', async () => {
      for (const [name, fn] of s.functions) {
        // Prepare: the template's values (references, dynamic references) stand in as plain strings.
        const given = (fn.Environment as { Variables: Record<string, unknown> }).Variables;
        const env = Object.fromEntries(Object.keys(given).map((key) => [key, `https://${key.toLowerCase()}.test`]));
        const module = (await import(pathToFileURL(functionEntry(handlerOf(name))).href)) as {
          create: (config: Config) => unknown;
        };
        // Act / Assess
        expect(() => module.create(loadConfig(env)), name).not.toThrow();
        for (const key of Object.keys(env).filter((setting) => setting !== 'NODE_OPTIONS')) {
          const { [key]: _removed, ...without } = env;
          expect(() => module.create(loadConfig(without)), `${name} without ${key}`).toThrow(ConfigError);
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
    it('allows each function exactly its DynamoDB actions on the table (and index for Query), its logs and X-Ray', () => {
      const table = JSON.stringify(getAtt(tableId()));
      const index = JSON.stringify({ 'Fn::Join': ['', [getAtt(tableId()), '/index/byName']] });
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
          expected[`dynamodb:${action}`] = action === 'Query' ? [table, index].sort() : [table];
        }
        // Act
        const grants = s.grants(roleOf(fn));
        // Assess
        expect(grants, name).toEqual(expected);
      }
    });

    it('never grants Scan, a DynamoDB wildcard, or any wildcard resource outside X-Ray', () => {
      for (const [, policy] of s.ofType('AWS::IAM::Policy')) {
        const text = JSON.stringify(policy.Properties);
        expect(text).not.toMatch(/dynamodb:(\*|Scan)/);
        expect(text).not.toContain('/index/*');
      }
      for (const fn of s.functions.values()) {
        const wildcards = Object.entries(s.grants(roleOf(fn))).filter(([, resources]) =>
          resources.some((resource) => resource.includes('*')),
        );
        expect(wildcards.map(([action]) => action)).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
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

    it('serves exactly the routes of lib/routes.ts, each integrated with the function the local gateway runs', () => {
      // Prepare
      const expected = routes.flatMap((route) => route.methods.map((method) => `${method} ${route.path}`));
      // Act
      const synthesized = methods();
      // Assess
      expect(synthesized.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(expected.sort());
      for (const { method, path, props } of synthesized) {
        const local = matchRoute(method, path.replace('{id}', '42'));
        expect(props.Integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
        expect(integratedFunction(props), `${method} ${path}`).toBe(s.functions.get(local?.route.name ?? '')?.id);
      }
    });

    it('puts the REQUEST authorizer on every method, keyed on the Authorization header', () => {
      // Prepare
      const [authorizerId, authorizer] = s.only('AWS::ApiGateway::Authorizer');
      // Assess
      expect(authorizer.Properties).toMatchObject({
        Type: 'REQUEST',
        IdentitySource: 'method.request.header.Authorization',
        AuthorizerResultTtlInSeconds: config.api.authorizerCacheTtl.toSeconds(),
        AuthorizerUri: { 'Fn::Join': ['', expect.arrayContaining([getAtt(s.functions.get('authorizer')?.id ?? '')])] },
      });
      for (const { props } of methods()) {
        expect(props).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId } });
      }
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
          'table-throttled-requests',
          'table-system-errors',
          ...functionAlarms,
        ].sort(),
      );
      for (const [name, fn] of s.functions) {
        const errors = alarms.find((alarm) => alarm.AlarmName === `domains-spaces-${stage}-${name}-errors`);
        expect(errors).toMatchObject({ MetricName: 'Errors', Dimensions: [{ Value: { Ref: fn.id } }] });
      }
      const [topicId] = s.only('AWS::SNS::Topic');
      for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
      s.template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    });

    it('outputs the API URL and the table name', () => {
      expect(Object.keys(s.template.toJSON().Outputs).sort()).toEqual(['AlarmTopicArn', 'ApiUrl', 'TableName']);
      s.template.hasOutput('TableName', { Value: { Ref: tableId() } });
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

  it('leaves no cdk-nag finding (AwsSolutions, Serverless) unacknowledged', () => {
    for (const pack of [new AwsSolutionsChecks(), new ServerlessChecks()]) {
      // Act
      const report = pack.validateScope(s.app);
      // Assess
      expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources[0]?.constructPath}`)).toEqual([]);
    }
  });
});
