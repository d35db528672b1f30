/**
 * A tenant's certificates across a "verify again" (functions/edge/sync.ts, `cloudFrontTenants.ensure`), against
 * DynamoDB Local and the local CloudFront with its ACM: once a certificate has failed and the name points at the
 * edge again, the sync asks CloudFront for a new one and deletes the failed one (ACM keeps a certificate, and
 * counts it in its quota, until it is deleted); while the new one is pending, more syncs ask for nothing more.
 * The host holds one certificate throughout.
 */
import { randomUUID } from 'node:crypto';
import { ACMClient } from '@aws-sdk/client-acm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudFrontEdge, create, type SyncEvent } from '#functions/edge/sync.ts';
import { storeDomain, verifyDomain } from '#lib/domains/data/domains.ts';
import type { LookupRecords } from '#lib/domains/rules/dns-records.ts';
import type { EdgeConfig } from '#lib/edge/settings.ts';
import { type CloudFrontHarness, cloudFrontHarness, TEST_CREDENTIALS } from '#test/support/cloudfront-harness.ts';
import { db } from '#test/support/database.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { configWithDns } from '#test/support/domains.ts';

let dns: DnsTestServer;
let cf: CloudFrontHarness;
let acm: ACMClient;
let config: EdgeConfig;

beforeAll(async () => {
  dns = await startDnsServer();
  cf = await cloudFrontHarness({ dns });
  acm = new ACMClient({
    region: 'us-east-1',
    credentials: TEST_CREDENTIALS,
    endpoint: cf.cloudFront.endpoint,
    maxAttempts: 1,
  });
  config = {
    ...configWithDns(dns),
    edgeHostname: cf.connectionGroup.routingEndpoint,
    edgeKvsArn: cf.store.arn,
    edgeDistributionId: cf.distribution.id,
    edgeConnectionGroupId: cf.connectionGroup.id,
    edgeTenantPrefix: 'domains-spaces-test',
  };
});
afterAll(async () => {
  acm?.destroy();
  await cf?.close();
  await dns?.close();
});

const eventFor = (owner: string, name: string): SyncEvent =>
  ({
    'detail-type': 'domain.updated',
    detail: { id: '000000000001', type: 'domain.updated', owner, data: { name } },
  }) as unknown as SyncEvent;

describe('a verify again after a failed certificate', () => {
  it('asks for one new certificate, deletes the failed one, and asks for nothing more while it is pending', async () => {
    // Prepare: an active domain pointed at the edge, its tenant created, its certificate failed.
    const owner = `owner-${randomUUID()}`;
    const name = `cert-${randomUUID().slice(0, 8)}.example`;
    const stored = (await storeDomain(db, owner, { name, indexPage: 'https://a.example/', notFoundPage: null })).result;
    const found: LookupRecords = async () => ({ txt: { kind: 'found', values: [stored.verificationToken ?? ''] } });
    await verifyDomain(db, found, owner, stored.id);
    cf.pointAt(name);
    const sync = create(config, db, cloudFrontEdge(config, { ...cf.clients, acm }));
    await sync(eventFor(owner, name));
    cf.cloudFront.deployPending();
    cf.cloudFront.failCertificate(name);
    const ofHost = () => cf.cloudFront.certificates().filter((certificate) => certificate.domainName === name);
    const [failed] = ofHost();
    const requests = () =>
      cf.cloudFront.calls.filter(
        (call) => call.operation === 'UpdateDistributionTenant' && call.input.Domains?.toString() === name,
      );
    // Act: verify again (the sync follows its event), then two more events while the new one is pending.
    await sync(eventFor(owner, name));
    const afterRetry = ofHost();
    await sync(eventFor(owner, name));
    await sync(eventFor(owner, name));
    // Assess
    expect(failed).toMatchObject({ status: 'FAILED' });
    expect(afterRetry).toHaveLength(1);
    expect(afterRetry[0]).toMatchObject({ status: 'PENDING_VALIDATION', inUse: true });
    expect(afterRetry[0]?.arn).not.toBe(failed?.arn);
    expect(ofHost()).toEqual(afterRetry);
    expect(requests()).toHaveLength(1);
  });
});
