/**
 * The document's parameter examples as tools use them: Schemathesis, Postman and the generated clients send a
 * parameter's `example` with every request of every operation that takes it, again and again. Each example
 * works whenever it is sent (none answers 4xx for having been sent before), and the one header that must not be
 * reused, `Idempotency-Key`, has no example (its description shows one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import type { WebhookConfig } from '#lib/webhooks/settings.ts';
import { config } from '#test/support/database.ts';
import { type Client, newClient, startTestGateway } from '#test/support/http.ts';
import { document, documentOperations, resolveRef } from '#test/support/openapi.ts';

let gateway: Gateway;
beforeAll(async () => {
  // A webhook may name this machine (as on the local stack): its store needs no DNS here.
  gateway = await startTestGateway({ config: { ...config, webhookLocalLoopback: true } as WebhookConfig });
});
afterAll(() => gateway.close());

type Parameter = {
  name: string;
  in: 'path' | 'query' | 'header';
  description?: string;
  example?: unknown;
  examples?: unknown;
};
const parameters = (document as unknown as { components: { parameters: Record<string, Parameter> } }).components
  .parameters;

/** Every operation that takes a query or header parameter with an example, with those examples. */
const uses = documentOperations().flatMap(({ path, method, operation }) => {
  const refs = ((operation as unknown as { parameters?: { $ref: string }[] }).parameters ?? []).map(
    (ref) => resolveRef<Parameter>(ref).value,
  );
  const examples = refs.filter((parameter) => parameter.in !== 'path' && parameter.example !== undefined);
  return examples.length === 0 ? [] : [{ id: operation.operationId, path, method, examples }];
});

let sequence = 0;
/** A body the operation takes, different each time (a store's name is unique per owner). */
const body = (path: string): Record<string, string> => {
  if (path.startsWith('/spaces')) return { name: `Example ${++sequence}`, color: '2' };
  if (path.startsWith('/webhooks')) return { url: `http://127.0.0.1:9/hook-${++sequence}` };
  return { name: `example-${++sequence}.example.net` };
};

/** A request of the operation with its examples: on an item of a fresh owner, with a body if it takes one. */
async function send(api: Client, use: (typeof uses)[number]) {
  const collection = `/api/v1${use.path.split('/{id}')[0]}`;
  const path = use.path.includes('{id}')
    ? `/api/v1${use.path.replace('{id}', String((await api.post(collection, body(use.path))).body.data.id))}`
    : `/api/v1${use.path}`;
  const query = new URLSearchParams(
    Object.fromEntries(
      use.examples.filter((each) => each.in === 'query').map((each) => [each.name, String(each.example)]),
    ),
  );
  const headers = Object.fromEntries(
    use.examples.filter((each) => each.in === 'header').map((each) => [each.name, String(each.example)]),
  );
  const takesBody = use.method === 'POST' || use.method === 'PUT' || use.method === 'PATCH';
  return api.request(use.method, query.size > 0 ? `${path}?${query}` : path, {
    headers,
    ...(takesBody && !/\/(verify|rotate-secret)$/.test(use.path)
      ? { form: { color: '3', not_found_page: '', description: 'x' } }
      : {}),
  });
}

describe("the document's parameter examples", () => {
  it('are on the feed cursor, the type filter and the conditional headers (and no Idempotency-Key)', () => {
    // Assess
    expect(uses.map((use) => use.id).sort()).toEqual(
      [
        'destroyDomain',
        'destroySpace',
        'destroyWebhook',
        'listEvents',
        'listEventsHead',
        'putDomain',
        'putSpace',
        'putWebhook',
        'rotateSecretWebhook',
        'showDomain',
        'showDomainHead',
        'showSpace',
        'showSpaceHead',
        'showWebhook',
        'showWebhookHead',
        'updateDomain',
        'updateSpace',
        'updateWebhook',
      ].sort(),
    );
    expect(parameters.IdempotencyKey).not.toHaveProperty('example');
    expect(parameters.IdempotencyKey).not.toHaveProperty('examples');
    expect(parameters.IdempotencyKey?.description).toContain('has no `example`');
  });

  it.each(uses.map((use) => [use.id, use]))('work whenever a tool sends them again: %s', async (_, use) => {
    // Prepare: two owners, as two runs of a tool would be.
    const [one, two] = [await newClient(gateway), await newClient(gateway)];
    // Act: each sends the examples twice.
    const replies = [await send(one, use), await send(one, use), await send(two, use), await send(two, use)];
    // Assess: success (a show may answer 304), never a refusal of the example itself.
    for (const reply of replies) expect([200, 204, 304], `${reply.status} ${reply.text}`).toContain(reply.status);
  });
});
