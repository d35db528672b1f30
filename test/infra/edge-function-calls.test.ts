/**
 * Each edge function's role holds exactly what its own calls need (infra/constructs/edge.ts, edge-sweep.ts), with
 * the calls derived rather than listed: the sync and the sweep are built as Lambda builds them (`create`, over SDK
 * clients of their own) and run through their lifecycles against DynamoDB Local and the local CloudFront with its
 * ACM. Every SDK command each sends is recorded and turned into the IAM actions it needs: its own, each part's of
 * a transaction, and those CloudFront authorizes with the caller's permissions (`TagResource` for a tenant's
 * `Tags`, `acm:RequestCertificate` for a `ManagedCertificateRequest`: cloudfront-actions.ts has the sources).
 * Each synthesized role must grant exactly those, and so must each function's table of documented actions
 * (cloudfront-actions.ts, edge-sweep-actions.ts, which cloudfront-iam.test.ts and edge-sweep.test.ts hold the
 * resource forms to). A call no path of the lifecycle makes is a grant this test refuses.
 */
import { randomUUID } from 'node:crypto';
import { ACMClient } from '@aws-sdk/client-acm';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudFrontSweepEdge, create as createSweep } from '#functions/edge/sweep.ts';
import { cloudFrontEdge, create as createSync, type SyncEvent } from '#functions/edge/sync.ts';
import { Edge } from '#infra/constructs/edge.ts';
import { EdgeSweep } from '#infra/constructs/edge-sweep.ts';
import { stages } from '#infra/stages.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { destroyDomain, storeDomain, verifyDomain } from '#lib/domains/data/domains.ts';
import type { LookupRecords } from '#lib/domains/rules/dns-records.ts';
import { TOMBSTONE_TTL_MS } from '#lib/edge/rules/entry.ts';
import type { EdgeConfig } from '#lib/edge/settings.ts';
import type { SweepConfig } from '#lib/edge/sweep-settings.ts';
import { type CloudFrontHarness, cloudFrontHarness, TEST_CREDENTIALS } from '#test/support/cloudfront-harness.ts';
import { config, db } from '#test/support/database.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { configWithDns } from '#test/support/domains.ts';
import { edgeSyncActions } from './cloudfront-actions.ts';
import { edgeSweepActions } from './edge-sweep-actions.ts';

type Input = {
  Tags?: unknown;
  ManagedCertificateRequest?: unknown;
  TransactItems?: Record<string, unknown>[];
};

/** A transaction's parts, as IAM authorizes them ("TransactWriteItems": each part's own action). */
const TRANSACTION_PARTS: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
  Get: 'GetItem',
};

/** The IAM actions one SDK command of `service` needs. */
function actionsOf(service: string, commandName: string, input: Input): string[] {
  const operation = commandName.replace(/Command$/, '');
  if (service === 'dynamodb' && /^Transact(Write|Get)Items$/.test(operation)) {
    return (input.TransactItems ?? []).flatMap((part) =>
      Object.keys(part).flatMap((kind) => (TRANSACTION_PARTS[kind] ? [`dynamodb:${TRANSACTION_PARTS[kind]}`] : [])),
    );
  }
  return [
    `${service}:${operation}`,
    ...(service === 'cloudfront' && input.Tags ? ['cloudfront:TagResource'] : []),
    ...(service === 'cloudfront' && input.ManagedCertificateRequest ? ['acm:RequestCertificate'] : []),
  ];
}

type Middleware = (
  next: (args: { input: unknown }) => Promise<unknown>,
  context: { commandName?: string },
) => (args: { input: unknown }) => Promise<unknown>;

/** Adds each action a client's commands need to `into`, as they are sent (a refused call needs its grant too). */
function record(into: Set<string>, service: string, client: { middlewareStack: unknown }) {
  const stack = client.middlewareStack as { add(middleware: Middleware, options: object): void };
  stack.add(
    (next, context) => async (args) => {
      for (const action of actionsOf(service, context.commandName ?? '', args.input as Input)) into.add(action);
      return next(args);
    },
    { step: 'initialize', name: 'recordActions' },
  );
}

let dns: DnsTestServer;
let cf: CloudFrontHarness;
const acms: ACMClient[] = [];
const called = { sync: new Set<string>(), sweep: new Set<string>() };

/** A function's own clients (CloudFront, KeyValueStore, ACM, DynamoDB), each recording into `into`. */
function clientsRecording(into: Set<string>) {
  const { cloudFront, keyValueStore } = cf.clientsWith({});
  const acm = new ACMClient({ region: 'us-east-1', credentials: TEST_CREDENTIALS, endpoint: cf.cloudFront.endpoint });
  acms.push(acm);
  const ownDb = createDb(config);
  record(into, 'cloudfront', cloudFront);
  record(into, 'cloudfront-keyvaluestore', keyValueStore);
  record(into, 'acm', acm);
  record(into, 'dynamodb', ownDb.client);
  return { clients: { cloudFront, keyValueStore, acm }, db: ownDb };
}

const eventFor = (owner: string, name: string, type: string): SyncEvent =>
  ({ 'detail-type': type, detail: { id: '000000000001', type, owner, data: { name } } }) as unknown as SyncEvent;

/** Stores and verifies a domain as the API does (not a call of the functions'). */
async function verified(owner: string, name: string) {
  const stored = (await storeDomain(db, owner, { name, indexPage: 'https://a.example/', notFoundPage: null })).result;
  const found: LookupRecords = async () => ({ txt: { kind: 'found', values: [stored.verificationToken ?? ''] } });
  await verifyDomain(db, found, owner, stored.id);
  return stored.id;
}

/**
 * The sync through every path that calls something of its own: a tenant created, served, its certificate failed
 * and asked for again (the failed one deleted), a host not pointed yet, a deleted domain's tombstone and disabled
 * tenant, the tenant enabled again for the name verified again; then the sweep of that host once its tombstone
 * is old: the usage measured, the store listed, the tenant, its certificate and the tombstone deleted, its cursor kept.
 */
async function runLifecycles() {
  const shards = cf.shards.map((shard) => ({ kvsArn: shard.store.arn, distributionId: shard.distribution.id }));
  const common = { ...configWithDns(dns), edgeConnectionGroupId: cf.connectionGroup.id };
  const syncConfig: EdgeConfig = {
    ...common,
    edgeHostname: cf.connectionGroup.routingEndpoint,
    edgeKvsArn: cf.store.arn,
    edgeDistributionId: cf.distribution.id,
    edgeShards: shards,
    edgeTenantPrefix: 'domains-spaces-test',
  };
  const sweepConfig: SweepConfig = { ...common, edgeShards: shards, edgeTenantPrefix: 'domains-spaces-test' };
  const forSync = clientsRecording(called.sync);
  const sync = createSync(syncConfig, forSync.db, cloudFrontEdge(syncConfig, forSync.clients));

  const owner = `owner-${randomUUID()}`;
  const name = `calls-${randomUUID().slice(0, 8)}.example`;
  const first = await verified(owner, name);
  cf.pointAt(name);
  await sync(eventFor(owner, name, 'domain.verified'));
  cf.cloudFront.issueCertificate(name);
  cf.cloudFront.deployPending();
  await sync(eventFor(owner, name, 'domain.updated'));
  cf.cloudFront.failCertificate(name);
  await sync(eventFor(owner, name, 'domain.updated'));
  const waiting = `calls-${randomUUID().slice(0, 8)}.example`;
  await verified(owner, waiting);
  await sync(eventFor(owner, waiting, 'domain.verified'));
  await destroyDomain(db, owner, first);
  await sync(eventFor(owner, name, 'domain.deleted'));
  const again = await verified(owner, name);
  await sync(eventFor(owner, name, 'domain.verified'));
  await destroyDomain(db, owner, again);
  await sync(eventFor(owner, name, 'domain.deleted'));
  cf.cloudFront.deployPending();

  const forSweep = clientsRecording(called.sweep);
  const edge = cloudFrontSweepEdge(sweepConfig, forSweep.clients);
  const later = () => Date.now() + TOMBSTONE_TTL_MS + 60_000;
  const swept = await createSweep(sweepConfig, forSweep.db, { ...edge, now: later }, { publish: () => {} })();
  return { swept, tenantLeft: cf.cloudFront.servingTenant(name) };
}

type Statement = { Action: string | string[]; Resource: unknown };

/** Each function's role's actions on the table, CloudFront, its stores and ACM, as the constructs synthesize them. */
function granted() {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'calls-test', { env: { account: '123456789012', region: 'us-east-1' } });
  const table = new Table(stack, 'table', {
    partitionKey: { name: 'pk', type: AttributeType.STRING },
    sortKey: { name: 'sk', type: AttributeType.STRING },
  });
  const { hostname: _h, anycastIpListId: _a, shards: _s, hostsPerShard: _p, ...settings } = stages.prod.edge;
  const edge = new Edge(stack, 'edge', {
    config: stages.prod,
    table,
    bus: new EventBus(stack, 'bus'),
    alarms: new Topic(stack, 'alarms'),
    settings,
    originDomainName: 'api.example.com',
  });
  const sweep = new EdgeSweep(stack, 'edge-sweep', {
    config: stages.prod,
    table,
    shards: edge.shards.map(({ store, distribution }) => ({
      storeArn: store.keyValueStoreArn,
      distributionId: distribution.attrId,
    })),
    connectionGroupId: edge.connectionGroup.attrId,
    deadLetters: edge.deadLetters,
  });
  const resources = Template.fromStack(stack).toJSON().Resources as Record<
    string,
    { Type: string; Properties: Record<string, unknown> }
  >;
  const statementsOf = (role: unknown) => {
    const roleId = stack.getLogicalId((role as { node: { defaultChild: never } }).node.defaultChild);
    return Object.values(resources)
      .filter((resource) => resource.Type === 'AWS::IAM::Policy')
      .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
      .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
  };
  const storeArns = edge.shards.map((shard) => ({
    'Fn::GetAtt': [stack.getLogicalId(shard.store.node.defaultChild as never), 'Arn'],
  }));
  return { sync: statementsOf(edge.sync.role), sweep: statementsOf(sweep.function.role), storeArns };
}

const ofTheEdge = (action: string) => /^(cloudfront|cloudfront-keyvaluestore|acm|dynamodb):/.test(action);
const actionsIn = (statements: readonly Statement[]) =>
  [...new Set(statements.flatMap((statement) => [statement.Action].flat()).filter(ofTheEdge))].sort();

let lifecycle: Awaited<ReturnType<typeof runLifecycles>>;
let grants: ReturnType<typeof granted>;

beforeAll(async () => {
  dns = await startDnsServer();
  cf = await cloudFrontHarness({ dns, shards: 2 });
  lifecycle = await runLifecycles();
  grants = granted();
}, 120_000);
afterAll(async () => {
  for (const acm of acms) acm.destroy();
  await cf?.close();
  await dns?.close();
});

describe("each edge function's grants, from the calls it makes", () => {
  it('ran both lifecycles to their end: the sweep deleted the tenant, its certificate and the tombstone', () => {
    expect(lifecycle.swept).toMatchObject({ swept: 1, certificates: 1, done: true });
    expect(lifecycle.tenantLeft).toBeNull();
  });

  it.each(['sync', 'sweep'] as const)('the %s is granted exactly the actions its calls need', (fn) => {
    // Prepare
    const needed = [...called[fn]].sort();
    // Assess
    expect(actionsIn(grants[fn]), fn).toEqual(needed);
  });

  it.each([
    ['sync', edgeSyncActions],
    ['sweep', edgeSweepActions],
  ] as const)("the %s's table of documented actions names exactly its calls", (fn, rows) => {
    // Prepare: the table's edge actions, and the recorded ones it documents (its table rows are per call)
    const documented = rows.map((row) => row.action).filter((action) => !action.startsWith('dynamodb:'));
    const needed = [...called[fn]].filter((action) => !action.startsWith('dynamodb:'));
    // Assess
    expect(documented.sort()).toEqual(needed.sort());
  });

  it("grants the stores' actions of both on every shard's store, and on nothing else", () => {
    for (const fn of ['sync', 'sweep'] as const) {
      // Prepare
      const onStores = grants[fn].filter((statement) =>
        [statement.Action].flat().some((action) => action.startsWith('cloudfront-keyvaluestore:')),
      );
      // Assess
      expect(onStores, fn).toHaveLength(1);
      expect([onStores[0]?.Resource].flat(), fn).toEqual(grants.storeArns);
      expect(grants.storeArns).toHaveLength(stages.prod.edge.shards);
    }
  });
});
