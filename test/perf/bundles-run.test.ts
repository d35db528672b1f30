/**
 * The deployed artefacts themselves, not the sources: each API function's bundle (built with the stack's
 * esbuild options, `infra/bundling.ts`, which leave the SDK's unused credential providers and event-stream codec
 * out) is written to disk, imported as Lambda imports it, and answers real requests against DynamoDB Local; the
 * authorizer's bundle checks a key. A bundle that needed what the options leave out would fail here.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_FILE, bundleFunction, bundleTargets } from '#infra/bundles.ts';
import { directAuthorizerEvent, directEvent, lambdaContext } from '#infra/local/lambda.ts';
import { createApiKey } from '#lib/auth/data/key-admin.ts';
import { type Config, configured } from '#lib/platform/config.ts';
import { config, db } from '#test/support/database.ts';

type Module = { create: (config: Config) => (event: unknown, context: Context) => Promise<unknown> };

const directory = mkdtempSync(join(tmpdir(), 'bundles-run-'));
const handlers = new Map<string, (event: unknown, context: Context) => Promise<unknown>>();

/** The functions exercised: a space's and a domain's whole life, the feed, and the authorizer. */
const NAMES = [
  'store-space',
  'list-spaces',
  'show-space',
  'update-space',
  'destroy-space',
  'store-domain',
  'update-domain',
  'list-events',
  'authorizer',
];

beforeAll(async () => {
  const settings: Config = { ...config, edgeHostname: 'edge.test' };
  for (const target of bundleTargets.filter((each) => NAMES.includes(each.name))) {
    const bundle = await bundleFunction(target);
    // As the asset holds it: the code and its source map beside it (the code names `index.js.map`). Its folder has
    // no package.json, as in the asset: `index.js` is CommonJS, as Lambda loads it.
    const folder = join(directory, target.name);
    mkdirSync(folder);
    const file = join(folder, BUNDLE_FILE);
    writeFileSync(file, bundle.code);
    if (bundle.map) writeFileSync(`${file}.map`, bundle.map);
    const module = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Module;
    handlers.set(target.name, configured(module.create, settings));
  }
}, 120_000);

afterAll(() => rmSync(directory, { recursive: true, force: true }));

const owner = `bundled-${Date.now()}`;

async function call(name: string, event: APIGatewayProxyEvent) {
  const handler = handlers.get(name);
  if (!handler) throw new Error(`No bundle for ${name}`);
  const result = (await handler(event, lambdaContext(name))) as APIGatewayProxyResult;
  return { status: result.statusCode, body: result.body ? JSON.parse(result.body) : undefined };
}

describe('the bundles as Lambda runs them', () => {
  it('store, list, show, update and delete a space, store and update a domain, and list the feed', async () => {
    // Act
    const stored = await call(
      'store-space',
      directEvent({ method: 'POST', url: '/api/v1/spaces', owner, form: { name: 'Bundled', color: '2' } }),
    );
    const id = stored.body.data.id as number;
    const listed = await call('list-spaces', directEvent({ method: 'GET', url: '/api/v1/spaces', owner }));
    const shown = await call('show-space', directEvent({ method: 'GET', url: `/api/v1/spaces/${id}`, owner }));
    const updated = await call(
      'update-space',
      directEvent({ method: 'PATCH', url: `/api/v1/spaces/${id}`, owner, form: { color: '5' } }),
    );
    const destroyed = await call(
      'destroy-space',
      directEvent({ method: 'DELETE', url: `/api/v1/spaces/${id}`, owner }),
    );
    const domain = await call(
      'store-domain',
      directEvent({
        method: 'POST',
        url: '/api/v1/domains',
        owner,
        form: { name: `bundled-${Date.now()}.example.com` },
      }),
    );
    const page = await call(
      'update-domain',
      directEvent({
        method: 'PATCH',
        url: `/api/v1/domains/${domain.body.data.id}`,
        owner,
        form: { index_page: 'https://www.example.org/' },
      }),
    );
    const feed = await call('list-events', directEvent({ method: 'GET', url: '/api/v1/events?per_page=100', owner }));
    // Assess
    expect([stored, listed, shown, updated, destroyed, domain, page, feed].map((reply) => reply.status)).toEqual([
      201, 200, 200, 200, 200, 201, 200, 200,
    ]);
    expect(updated.body.data).toMatchObject({ name: 'Bundled', color: 5 });
    expect(page.body.data).toMatchObject({ serving: 'pending', index_page: 'https://www.example.org/' });
    expect(feed.body.data.map((event: { type: string }) => event.type)).toEqual([
      'space.created',
      'space.updated',
      'space.deleted',
      'domain.created',
      'domain.updated',
    ]);
  });

  it('authorizes a key and refuses an unknown one (the authorizer bundle)', async () => {
    // Prepare
    const { key } = await createApiKey(db, owner, 'bundled');
    const handler = handlers.get('authorizer');
    // Act
    const allowed = (await handler?.(directAuthorizerEvent(key), lambdaContext('authorizer'))) as {
      context: { ownerId: string };
    };
    const refused = handler?.(directAuthorizerEvent('dsk_unknown'), lambdaContext('authorizer'));
    // Assess
    expect(allowed.context.ownerId).toBe(owner);
    await expect(refused).rejects.toThrow('Unauthorized');
  });
});
