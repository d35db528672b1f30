/**
 * The route table's `actions` are the IAM grants of each function on AWS. This suite drives every route through
 * the local gateway along each of its code paths (successes, conflicts, renames, deep pages, searches, misses)
 * while recording the DynamoDB actions each function issues, transaction items by kind, and requires them to
 * equal the declared actions: a grant that is missing, or one that is never used, fails here, naming the route.
 * Each collection has its exercise (`exercises`, by collection: a kind without one does not compile), and a
 * route no exercise calls fails too, so a new kind's routes (a rename of its items included) are driven here.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionRecorder } from '#infra/local/dynamodb-recorder.ts';
import type { Gateway } from '#infra/local/gateway.ts';
import { type Collection, collectionNames } from '#lib/kinds.ts';
import { grantedActions } from '#lib/routes.ts';
import type { WebhookConfig } from '#lib/webhooks/settings.ts';
import { db } from '#test/support/database.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { configWithDns } from '#test/support/domains.ts';
import { type Client, newClient, startTestGateway } from '#test/support/http.ts';
import { startReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

const recorder = new ActionRecorder();
let detach: () => void;
let gateway: Gateway;
let client: Client;
let other: Client;
let dns: DnsTestServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  dns = await startDnsServer();
  detach = recorder.attach(db.client.middlewareStack as never);
  receiver = await startReceiver();
  // Webhooks may call the test receiver on this machine, as on the local stack.
  gateway = await startTestGateway({ config: { ...configWithDns(dns), webhookLocalLoopback: true } as WebhookConfig });
  client = await newClient(gateway);
  other = await newClient(gateway);
});
afterAll(async () => {
  detach();
  await gateway.close();
  await dns.close();
  await receiver.close();
});

/** A store with an Idempotency-Key, then its replay. */
async function idempotentStore(path: string, form: Record<string, string>) {
  const headers = { 'Idempotency-Key': randomUUID() };
  await client.request('POST', path, { form, headers });
  await client.request('POST', path, { form, headers }); // replayed
}

async function exerciseSpaces() {
  const base = '/api/v1/spaces';
  const names = Array.from({ length: 12 }, (_, index) => `Space ${index} ${randomUUID().slice(0, 6)}`);
  const ids: number[] = [];
  for (const name of names) ids.push((await client.post(base, { name, color: '2' })).body.data.id);
  await client.post(base, { name: names[0] as string }); // name taken
  await idempotentStore(base, { name: `Keyed ${randomUUID().slice(0, 6)}` });
  await client.request('PATCH', `${base}/${ids[3]}`, { form: { color: '3' }, headers: { 'If-Match': '"9"' } }); // 412
  await client.request('GET', `${base}/${ids[3]}`, { headers: { 'If-None-Match': '"1"' } }); // 304
  const first = await client.get(base, { sort_by: 'name', sort: 'asc' });
  await client.get(first.body.links.next.replace(gateway.url, '')); // cursor page
  await client.get(base, { page: 2 }); // offset walk
  await client.get(base, { search: 'space 1' });
  await client.get(`${base}/${ids[0]}`);
  await client.get(`${base}/999999`); // not found
  await client.patch(`${base}/${ids[0]}`, { color: '4' }); // same name
  await client.patch(`${base}/${ids[0]}`, {}); // nothing changes
  await client.put(`${base}/${ids[1]}`, { name: `Renamed ${randomUUID().slice(0, 6)}` }); // rename moves the guard
  await client.put(`${base}/${ids[2]}`, { name: names[3] as string }); // rename onto a taken name
  await client.patch(`${base}/999999`, { name: 'x'.repeat(40) }); // invalid, for an id the owner lacks
  await client.delete(`${base}/${ids[0]}`);
  await client.delete(`${base}/${ids[0]}`); // already gone
}

async function exerciseDomains() {
  const base = '/api/v1/domains';
  const names = Array.from({ length: 12 }, (_, index) => `d${index}-${randomUUID().slice(0, 8)}.example.com`);
  const ids: number[] = [];
  for (const name of names) ids.push((await client.post(base, { name })).body.data.id);
  await client.post(base, { name: names[0] as string }); // name taken
  await idempotentStore(base, { name: `keyed-${randomUUID().slice(0, 8)}.example.com` });
  await client.request('DELETE', `${base}/${ids[4]}`, { headers: { 'If-Match': '"9"' } }); // 412
  const first = await client.get(base, { sort_by: 'name' });
  await client.get(first.body.links.next.replace(gateway.url, ''));
  await client.get(base, { page: 2 });
  await client.get(base, { search: 'example' });
  await client.get(`${base}/${ids[0]}`);
  await client.patch(`${base}/${ids[0]}`, { index_page: 'https://www.example.org/' });
  await client.patch(`${base}/${ids[0]}`, { not_found_page: `https://${names[0]}/404` }); // loops to itself
  await client.patch(`${base}/${ids[0]}`, {});
  await client.patch(`${base}/999999`, { index_page: 'not a url' });
  await client.delete(`${base}/${ids[0]}`);
  await client.delete(`${base}/${ids[0]}`);
}

async function exerciseVerification() {
  const base = '/api/v1/domains';
  const name = `v-${randomUUID().slice(0, 8)}.example.com`;
  // Its page: becoming active checks that it is not on another of the owner's active domains.
  const mine = (await client.post(base, { name, index_page: 'https://www.example.org/' })).body.data;
  const theirs = (await other.post(base, { name })).body.data; // a pending name is not reserved
  await client.request('POST', `${base}/${mine.id}/verify`); // no record: the check is recorded
  dns.setTxt(mine.verification.name, [mine.verification.value, theirs.verification.value]);
  await client.request('POST', `${base}/${mine.id}/verify`); // active: takes the global name
  const key = { headers: { 'Idempotency-Key': randomUUID() } };
  await client.request('POST', `${base}/${mine.id}/verify`, key); // re-check, with a key
  await client.request('POST', `${base}/${mine.id}/verify`, key); // replayed
  await other.request('POST', `${base}/${theirs.id}/verify`); // taken
  await client.post(base, { name }); // taken, by the active domain's global guard
  await client.request('POST', `${base}/999999/verify`); // not found
  dns.setMode(mine.verification.name, 'servfail');
  await client.request('POST', `${base}/${mine.id}/verify`); // DNS fails: 503, nothing written
  await client.delete(`${base}/${mine.id}`); // an active domain releases both guards
  await other.delete(`${base}/${theirs.id}`); // a pending one its owner's guard
}

async function exerciseWebhooks() {
  const base = '/api/v1/webhooks';
  const ids: number[] = [];
  for (let index = 0; index < 10; index++) {
    ids.push((await client.post(base, { url: receiver.url(`/hook-${index}`), events: 'space.*' })).body.data.id);
  }
  await client.post(base, { url: receiver.url('/over-quota') }); // over the quota of 10
  await client.delete(`${base}/${ids.pop()}`);
  await idempotentStore(base, { url: receiver.url('/keyed') });
  await client.post(base, { url: 'https://10.0.0.1/hook' }); // refused before any write
  const first = await client.get(base, { sort_by: 'name', sort: 'asc' });
  await client.get(base, { page: 2 });
  await client.get(base, { search: 'hook-1' });
  if (first.body.links.next) await client.get(first.body.links.next.replace(gateway.url, ''));
  await client.get(`${base}/${ids[0]}`);
  await client.request('GET', `${base}/${ids[0]}`, { headers: { 'If-None-Match': '"1"' } }); // 304
  await client.patch(`${base}/${ids[0]}`, { enabled: 'false' });
  await client.patch(`${base}/${ids[0]}`, { enabled: 'true', url: receiver.url('/moved') });
  await client.patch(`${base}/${ids[0]}`, {}); // nothing changes
  await client.request('PATCH', `${base}/${ids[1]}`, { form: { description: 'x' }, headers: { 'If-Match': '"9"' } }); // 412
  await client.patch(`${base}/999999`, { url: 'not a url' });
  await client.request('POST', `${base}/${ids[0]}/rotate-secret`);
  // A failed attempt starts the webhook's run of failures, the next success ends it (its bookkeeping).
  receiver.respondWith((response) => response.writeHead(500).end());
  await client.request('POST', `${base}/${ids[0]}/test`);
  receiver.respondWith((response) => response.writeHead(204).end());
  for (let index = 0; index < 10; index++) await client.request('POST', `${base}/${ids[0]}/test`);
  const attempts = await client.get(`${base}/${ids[0]}/deliveries`);
  await client.get(attempts.body.links.next.replace(gateway.url, ''));
  await client.get(`${base}/999999/deliveries`); // not found
  await client.delete(`${base}/${ids[0]}`);
  await client.delete(`${base}/${ids[0]}`);
}

async function exerciseEvents() {
  const first = await client.get('/api/v1/events', { per_page: 10 });
  await client.get(first.body.links.next.replace(gateway.url, ''));
  await client.get('/api/v1/events', { type: 'domain.' });
  await client.get('/api/v1/events', { after: 'not-an-id' }); // 422
  // The account: the feed head and the counters.
  await client.get('/api/v1/account');
}

/**
 * Each collection's routes along their code paths, renames included (the update's actions follow the kind's
 * `guards` in lib/kinds.ts): a collection of lib/kinds.ts without its exercise does not compile.
 */
const exercises: Record<Collection, () => Promise<void>> = {
  spaces: exerciseSpaces,
  domains: async () => {
    await exerciseDomains();
    await exerciseVerification();
  },
  webhooks: exerciseWebhooks,
};

/** Each function whose recorded actions differ from its grant (or that nothing called), in words. */
function mismatches(): string[] {
  return Object.entries(grantedActions).flatMap(([name, actions]) => {
    const declared = [...actions].sort();
    const issued = [...(recorder.actions.get(name) ?? [])].sort();
    if (issued.length === 0) return [`${name}: never called; add its calls to its collection's exercise in this file`];
    if (issued.join() === declared.join()) return [];
    return [
      `${name}: declared ${declared.join(', ')}; issued ${issued.join(', ')}. A grant it lacks is AccessDenied on ` +
        "AWS, one it never uses too wide: state the collection's guards in lib/kinds.ts (or the action in lib/routes.ts)",
    ];
  });
}

describe('DynamoDB actions per function', () => {
  it('equal the route table’s declared actions, for every route and the authorizer', { timeout: 90_000 }, async () => {
    // Act
    for (const collection of collectionNames) await exercises[collection]();
    await exerciseEvents();
    // Assess
    expect(mismatches()).toEqual([]);
  });
});
