/**
 * The local edge end to end, as `npm start` runs it: a domain stored and verified through the local gateway
 * (against a real DNS server on 127.0.0.1), its CNAME pointing at the edge host name, is served by the edge's
 * CloudFront Function from the local CloudFront's key-value store and tenant, which the sync keeps in line with
 * the change feed (certificates issued at once, as locally there are none); an update moves the redirect, a
 * delete stops it. A pending claim of a name never serves.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Edge, startEdge } from '#infra/local/edge.ts';
import { type EdgeFollower, followChanges } from '#infra/local/edge-feed.ts';
import type { Gateway } from '#infra/local/gateway.ts';
import { type LocalStageEdge, startStageEdge } from '#infra/local/stage-edge.ts';
import { db } from '#test/support/database.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { configWithDns, publish } from '#test/support/domains.ts';
import { type Client, newClient, startTestGateway } from '#test/support/http.ts';

const DOMAINS = '/api/v1/domains';

let dns: DnsTestServer;
let gateway: Gateway;
let edge: Edge;
let stage: LocalStageEdge;
let follower: EdgeFollower;

beforeAll(async () => {
  dns = await startDnsServer();
  const config = configWithDns(dns);
  gateway = await startTestGateway({ config });
  stage = await startStageEdge({ config, tenantPrefix: 'domains-spaces-test' });
  edge = await startEdge({
    cloudFront: stage.cloudFront,
    kvsArn: stage.kvsArn,
    distributionId: stage.distributionId,
    settings: { defaultIndexPage: '', defaultNotFoundPage: 'https://stage.example/missing', cacheSeconds: 60 },
  });
  follower = followChanges({ db, edge: stage.edge, intervalMs: 200 });
});
afterAll(async () => {
  await follower?.stop();
  await edge?.close();
  await stage?.close();
  await gateway?.close();
  await dns?.close();
});

/** A visit to the edge, as a browser at `host` would make it (node:http: fetch may not set Host). */
function visit(host: string, path = '/', method = 'GET') {
  return new Promise<{ status: number; location: string | null; body: string }>((resolve, reject) => {
    const req = request(`${edge.url}${path}`, { method, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, location: (res.headers.location as string) ?? null, body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Waits (within 2 s, the local edge's promise) until the edge answers `host` as `expected` says. */
async function served(host: string, expected: (answer: Awaited<ReturnType<typeof visit>>) => boolean) {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const answer = await visit(host);
    if (expected(answer)) return answer;
    if (Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const domainName = () => `edge-${randomUUID().slice(0, 8)}.example.com`;

describe('the local edge', () => {
  let client: Client;
  beforeAll(async () => {
    client = await newClient(gateway);
  });

  it('serves a verified domain within 2 s of each change: redirect, new Location, then CloudFront’s 403 after delete', async () => {
    // Prepare: stored and not yet verified: pending, so not served.
    const name = domainName();
    const stored = await client.post(DOMAINS, { name, index_page: 'https://www.example.org/one' });
    await follower.caughtUp();
    const pending = await visit(name);
    // Act: verify (the TXT record and the CNAME to the edge published), update, delete; the edge answers after each.
    publish(dns, stored.body.data);
    dns.setCname(name, 'edge.test');
    const verified = await client.request('POST', `${DOMAINS}/${stored.body.data.id}/verify`);
    const first = await served(name, (answer) => answer.status === 302);
    const elsewhere = await visit(name.toUpperCase(), '/unknown/path');
    await client.patch(`${DOMAINS}/${stored.body.data.id}`, { index_page: 'https://www.example.org/two' });
    const moved = await served(name, (answer) => answer.location === 'https://www.example.org/two');
    await client.delete(`${DOMAINS}/${stored.body.data.id}`);
    const gone = await served(name, (answer) => answer.status === 403);
    // Assess: no tenant serves a pending or deleted domain (its tenant disabled): CloudFront answers itself.
    expect(pending.status).toBe(403);
    expect(verified.status).toBe(200);
    expect(first).toMatchObject({ status: 302, location: 'https://www.example.org/one' });
    expect(elsewhere).toMatchObject({ status: 302, location: 'https://stage.example/missing' });
    expect(moved).toMatchObject({ status: 302, location: 'https://www.example.org/two' });
    expect(gone.status).toBe(403);
    expect(gone.body).toContain('The request could not be satisfied');
  });

  it('shows its owner the records found and that the edge serves it (`serving` active once the edge has it)', async () => {
    // Prepare: both records published: the TXT record and the CNAME to the stage's edge host.
    const name = domainName();
    const stored = await client.post(DOMAINS, { name, index_page: 'https://www.example.org/one' });
    publish(dns, stored.body.data);
    dns.setCname(name, 'EDGE.test.');
    // Act
    const verified = await client.request('POST', `${DOMAINS}/${stored.body.data.id}/verify`);
    await served(name, (answer) => answer.status === 302);
    await follower.caughtUp();
    const shown = await client.get(`${DOMAINS}/${stored.body.data.id}`);
    const events = await client.get('/api/v1/events', { type: 'domain.updated', per_page: 100 });
    // Assess
    expect(verified.body.data).toMatchObject({ status: 'active', serving: 'provisioning' });
    expect(verified.body.data.records.map((record: { status: string }) => record.status)).toEqual(['found', 'found']);
    expect(shown.body.data).toMatchObject({ status: 'active', serving: 'active', records: verified.body.data.records });
    // Serving is a change like any other: its event says so.
    expect(
      events.body.data.filter(
        (event: { data: { id: number; serving: string } }) =>
          event.data.id === stored.body.data.id && event.data.serving === 'active',
      ),
    ).toHaveLength(1);
  });

  it('never serves a pending claim of a name another owner holds active, and answers other methods 405', async () => {
    // Prepare: Alice's verified domain; Bob's pending claim of the same name, with other pages.
    const name = domainName();
    const alice = await client.post(DOMAINS, { name, index_page: 'https://alice.example/' });
    publish(dns, alice.body.data);
    dns.setCname(name, 'edge.test');
    await client.request('POST', `${DOMAINS}/${alice.body.data.id}/verify`);
    const bob = await newClient(gateway);
    await bob.post(DOMAINS, { name, index_page: 'https://bob.example/' });
    await follower.caughtUp();
    // Act
    const answer = await visit(name);
    const posted = await visit(name, '/', 'POST');
    const head = await visit(name, '/', 'HEAD');
    // Assess
    expect(answer).toMatchObject({ status: 302, location: 'https://alice.example/' });
    expect(posted.status).toBe(405);
    expect(head).toMatchObject({ status: 302, location: 'https://alice.example/', body: '' });
  });
});
