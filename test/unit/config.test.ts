/** Configuration as a value: one checked loader, defaults named once, and modules that read nothing at import. */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/bundling.ts';
import { createCursorSigner } from '#lib/http/cursor.ts';
import { atColdStart, edgeHostOf, loadPublisherConfig } from '#lib/platform/cold-start.ts';
import { ConfigError, loadConfig } from '#lib/platform/config.ts';
import { loadWebhookConfig } from '#lib/webhooks/settings.ts';

const run = promisify(execFile);

describe('loadConfig', () => {
  it('reads every setting, with the defaults for those not given', () => {
    // Act
    const config = loadConfig({
      TABLE_NAME: ' items ',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
      AWS_REGION: 'eu-west-1',
      CURSOR_SECRET: 's3cret',
      MAX_ITEMS_PER_OWNER: '25',
      DNS_RESOLVER: '127.0.0.1:5353, [::1]',
      DNS_TIMEOUT_MS: '500',
      CORS_ALLOWED_ORIGINS: 'https://app.example.com, http://localhost:5173',
    });
    const minimal = loadConfig({ TABLE_NAME: 'items' });
    // Assess
    expect(config).toEqual({
      tableName: 'items',
      dynamodbEndpoint: 'http://127.0.0.1:8000',
      region: 'eu-west-1',
      cursorSecret: 's3cret',
      maxItemsPerOwner: 25,
      dnsResolver: '127.0.0.1:5353, [::1]',
      dnsTimeoutMs: 500,
      corsAllowedOrigins: ['https://app.example.com', 'http://localhost:5173'],
    });
    expect(minimal).toEqual({
      tableName: 'items',
      maxItemsPerOwner: 10_000,
      dnsTimeoutMs: 2_000,
      corsAllowedOrigins: '*',
    });
  });

  it.each([
    [{}, 'TABLE_NAME is required'],
    [{ TABLE_NAME: '   ' }, 'TABLE_NAME is required'],
    [{ TABLE_NAME: 't', MAX_ITEMS_PER_OWNER: '0' }, 'MAX_ITEMS_PER_OWNER must be a positive integer'],
    [{ TABLE_NAME: 't', MAX_ITEMS_PER_OWNER: '1e3' }, 'MAX_ITEMS_PER_OWNER must be a positive integer'],
    [{ TABLE_NAME: 't', DYNAMODB_ENDPOINT: 'localhost:8000' }, 'DYNAMODB_ENDPOINT must be an http(s) URL'],
    [{ TABLE_NAME: 't', CORS_ALLOWED_ORIGINS: '*,https://a.example' }, 'CORS_ALLOWED_ORIGINS must be * alone'],
    [{ TABLE_NAME: 't', CORS_ALLOWED_ORIGINS: 'https://a.example/' }, 'CORS_ALLOWED_ORIGINS must list origins'],
    [{ TABLE_NAME: 't', CORS_ALLOWED_ORIGINS: 'https://A.example' }, 'CORS_ALLOWED_ORIGINS must list origins'],
    [{ TABLE_NAME: 't', CORS_ALLOWED_ORIGINS: '' }, 'CORS_ALLOWED_ORIGINS must list origins'],
    [{ TABLE_NAME: 't', DNS_TIMEOUT_MS: '5000' }, 'DNS_TIMEOUT_MS must be at most 2000'],
  ])('refuses %j, naming the setting', (env, message) => {
    // Act / Assess
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('names every bad setting at once', () => {
    // Act / Assess
    expect(() => loadConfig({ MAX_ITEMS_PER_OWNER: '-1' })).toThrow(
      /TABLE_NAME is required.*MAX_ITEMS_PER_OWNER must be a positive integer/,
    );
  });
});

describe('settings only some functions need', () => {
  it('the cursor signer refuses to start without CURSOR_SECRET', () => {
    // Act / Assess
    expect(() => createCursorSigner(loadConfig({ TABLE_NAME: 't' }))).toThrow('CURSOR_SECRET is required');
    expect(() => createCursorSigner(loadConfig({ TABLE_NAME: 't', CURSOR_SECRET: 'k' }))).not.toThrow();
  });
});

describe("the webhook functions' settings", () => {
  it("reads the shared ones and the webhooks' own, with the defaults for those not given", () => {
    // Act
    const config = loadWebhookConfig({
      TABLE_NAME: 'items',
      MAX_WEBHOOKS_PER_OWNER: '3',
      WEBHOOK_RETRY_DELAYS: '1s, 500ms,2h',
      WEBHOOK_LOCAL_LOOPBACK: 'true',
      WEBHOOK_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/deliveries',
    });
    const minimal = loadWebhookConfig({ TABLE_NAME: 'items' });
    // Assess
    expect(config).toMatchObject({
      tableName: 'items',
      maxWebhooksPerOwner: 3,
      webhookRetryDelays: '1s, 500ms,2h',
      webhookLocalLoopback: true,
      webhookQueueUrl: 'https://sqs.eu-west-1.amazonaws.com/123456789012/deliveries',
    });
    expect(minimal).toEqual({ ...loadConfig({ TABLE_NAME: 'items' }), webhookLocalLoopback: false });
  });

  it('refuses a bad schedule, quota or loopback flag at cold start, naming each', () => {
    // Act
    const load = () =>
      loadWebhookConfig({
        TABLE_NAME: 'items',
        MAX_WEBHOOKS_PER_OWNER: '0',
        WEBHOOK_RETRY_DELAYS: '5s,12h',
        WEBHOOK_LOCAL_LOOPBACK: 'yes',
      });
    // Assess
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/MAX_WEBHOOKS_PER_OWNER must be a positive integer/);
    expect(load).toThrow(
      /WEBHOOK_RETRY_DELAYS must be a comma-separated list .*"12h" is longer than the longest delay, 10h/,
    );
    expect(load).toThrow(/WEBHOOK_LOCAL_LOOPBACK must be true or false/);
  });
});

describe('the edge host name', () => {
  it('is read alike by loadConfig and by the publisher (which has no table): trimmed, lower case, a host name', () => {
    for (const [given, read] of [
      [' Edge.Example.NET ', 'edge.example.net'],
      ['d111111abcdef8.cloudfront.net', 'd111111abcdef8.cloudfront.net'],
      ['edge.localhost', 'edge.localhost'],
    ] as const) {
      // Act / Assess
      expect(loadConfig({ TABLE_NAME: 't', EDGE_HOSTNAME: given }).edgeHostname, given).toBe(read);
      expect(loadPublisherConfig({ EDGE_HOSTNAME: given }).edgeHostname, given).toBe(read);
    }
  });

  it('refuses what is no host name, in both', () => {
    for (const given of [
      'https://edge.example.net',
      'edge..example',
      '-edge.example',
      'edge example',
      `${'a'.repeat(64)}.net`,
    ]) {
      // Act / Assess
      expect(() => loadConfig({ TABLE_NAME: 't', EDGE_HOSTNAME: given }), given).toThrow(
        /EDGE_HOSTNAME must be a host name/,
      );
      expect(() => loadPublisherConfig({ EDGE_HOSTNAME: given }), given).toThrow(/EDGE_HOSTNAME must be a host name/);
    }
  });

  it('is required where domains are shown: a clear error at cold start without it', () => {
    // Act / Assess
    expect(() => edgeHostOf(loadPublisherConfig({}))).toThrow('EDGE_HOSTNAME is required');
    expect(() => edgeHostOf(loadConfig({ TABLE_NAME: 't' }))).toThrow(ConfigError);
  });

  it("comes with the routing endpoint, an apex's ALIAS target, where the stack sets it (a stage's own name)", () => {
    // Prepare
    const env = { EDGE_HOSTNAME: 'edge.example.net', EDGE_ROUTING_ENDPOINT: ' D111111abcdef8.cloudfront.net ' };
    const edge = { edgeHostname: 'edge.example.net', edgeRoutingEndpoint: 'd111111abcdef8.cloudfront.net' };
    // Act / Assess: read alike by loadConfig and the publisher; absent, the edge host name alone
    expect(edgeHostOf(loadConfig({ TABLE_NAME: 't', ...env }))).toEqual(edge);
    expect(edgeHostOf(loadPublisherConfig(env))).toEqual(edge);
    expect(edgeHostOf(loadPublisherConfig({ EDGE_HOSTNAME: 'edge.example.net' }))).toEqual({
      edgeHostname: 'edge.example.net',
    });
    for (const load of [
      (given: Record<string, string>) => loadConfig({ TABLE_NAME: 't', ...given }),
      loadPublisherConfig,
    ]) {
      expect(() => load({ ...env, EDGE_ROUTING_ENDPOINT: 'https://d1.cloudfront.net' })).toThrow(
        /EDGE_ROUTING_ENDPOINT must be a host name/,
      );
    }
  });
});

describe('atColdStart', () => {
  it('off Lambda, builds nothing and reads nothing: the handler says to use create(config)', () => {
    // Prepare
    let built = false;
    // Act
    const handler = atColdStart(() => {
      built = true;
      return () => 'handled';
    }, loadConfig);
    // Assess
    expect(built).toBe(false);
    expect(() => handler()).toThrow(/create\(config\)/);
  });
});

/** Every module of `lib/`, imported statically by a fresh script whose environment holds no setting. */
function libModules(dir = join(projectRoot, 'lib')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? libModules(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('imports', () => {
  it('any lib/ module can be imported by a new script with an empty environment', { timeout: 60_000 }, async () => {
    // Prepare
    const modules = libModules();
    const script = modules.map((file) => `import ${JSON.stringify(pathToFileURL(file).href)};`).join('\n');
    // Act
    const { stdout } = await run(
      join(projectRoot, 'node_modules', '.bin', 'tsx'),
      ['--input-type=module', '-e', `${script}\nconsole.log('imported ${modules.length}');`],
      { cwd: projectRoot, env: { PATH: process.env.PATH ?? '' } },
    );
    // Assess
    expect(modules.map((file) => relative(projectRoot, file))).toContain('lib/spaces/data/spaces.ts');
    expect(stdout.trim()).toBe(`imported ${modules.length}`);
  });
});
