/**
 * The local CloudFront (infra/local/cloudfront) as tests use it: certificates and deployments moved by hand, the
 * ownership check asking the test DNS server, a stage's multi-tenant distribution, connection group and key
 * value store made as the stack would make them, and the real SDK clients pointed at it.
 *   const cf = await cloudFrontHarness({ dns });
 *   cf.pointAt('shop.example.com');                       // CNAME to the connection group's routing endpoint
 *   await cf.clients.cloudFront.send(new CreateDistributionTenantCommand({ … }));
 */
import '@aws-sdk/signature-v4a';
import { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import { CloudFrontKeyValueStoreClient } from '@aws-sdk/client-cloudfront-keyvaluestore';
import {
  type LocalCloudFront,
  type LocalCloudFrontOptions,
  startLocalCloudFront,
} from '#infra/local/cloudfront/index.ts';
import { createDnsResolver } from '#lib/dns/resolver.ts';
import type { DnsTestServer } from './dns-server.ts';

export const TEST_CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };

/** The SDK's retries: none by default, so every answer is seen as the emulator gave it. */
export type Retries = { maxAttempts?: number; retryMode?: 'standard' | 'adaptive' };

export type CloudFrontHarness = {
  cloudFront: LocalCloudFront;
  distribution: { id: string; arn: string; domainName: string };
  connectionGroup: { id: string; arn: string; routingEndpoint: string };
  store: { arn: string; id: string };
  /** Every shard (`shards` asked; the first is `distribution` and `store`), by shard number. */
  shards: { distribution: { id: string; arn: string; domainName: string }; store: { arn: string; id: string } }[];
  /** Adds a shard, as a deploy with a larger `edge.shards` would. */
  addShard(): CloudFrontHarness['shards'][number];
  clients: { cloudFront: CloudFrontClient; keyValueStore: CloudFrontKeyValueStoreClient };
  /** New clients with other retry settings (destroyed on `close`). */
  clientsWith(retries: Retries): CloudFrontHarness['clients'];
  /** Makes `domain` a CNAME of a routing endpoint (the stage's connection group's by default). */
  pointAt(domain: string, routingEndpoint?: string): void;
  /** Gives `domain` (an apex) A records: the routing endpoint's addresses by default. */
  pointApexAt(domain: string, addresses?: readonly string[]): void;
  /** The addresses DNS gives each routing endpoint (loopback ones: nothing ever connects to them). */
  addressesOf(routingEndpoint: string): readonly string[];
  close(): Promise<void>;
};

export async function cloudFrontHarness(
  options: {
    dns: DnsTestServer;
    stage?: string;
    retries?: Retries;
    shards?: number;
    /** Verify every signature cryptographically (true by default); a test of volume checks only their form. */
    verifySignatures?: boolean;
  } & Pick<
    LocalCloudFrontOptions,
    'quotas' | 'latencyMs' | 'controlPlaneRate' | 'certificates' | 'deployment' | 'recordCalls'
  >,
): Promise<CloudFrontHarness> {
  const { dns } = options;
  const stage = options.stage ?? 'test';
  const cloudFront = await startLocalCloudFront({
    dns: createDnsResolver({ servers: [dns.address], timeoutMs: 500, tries: 1 }),
    certificates: options.certificates ?? 'manual',
    deployment: options.deployment ?? 'manual',
    ...(options.verifySignatures === false
      ? {}
      : { credentials: { [TEST_CREDENTIALS.accessKeyId]: TEST_CREDENTIALS.secretAccessKey } }),
    ...(options.quotas ? { quotas: options.quotas } : {}),
    ...(options.latencyMs ? { latencyMs: options.latencyMs } : {}),
    ...(options.controlPlaneRate === undefined ? {} : { controlPlaneRate: options.controlPlaneRate }),
    ...(options.recordCalls === undefined ? {} : { recordCalls: options.recordCalls }),
  });
  const shards: CloudFrontHarness['shards'] = [];
  const addShard = () => {
    const suffix = shards.length === 0 ? '' : `-${shards.length}`;
    const shard = {
      distribution: cloudFront.createDistribution({ connectionMode: 'tenant-only' }),
      store: cloudFront.createKeyValueStore(`${stage}-edge${suffix}`),
    };
    shards.push(shard);
    return shard;
  };
  for (let shard = 0; shard < (options.shards ?? 1); shard++) addShard();
  const { distribution, store } = shards[0] as CloudFrontHarness['shards'][number];
  const connectionGroup = cloudFront.createConnectionGroup({ name: `${stage}-edge` });

  const addresses = new Map<string, string[]>();
  for (const endpoint of [connectionGroup.routingEndpoint, cloudFront.defaultConnectionGroup.routingEndpoint]) {
    const octet = addresses.size * 3 + 10;
    const list = [`127.0.0.${octet}`, `127.0.0.${octet + 1}`, `127.0.0.${octet + 2}`];
    addresses.set(endpoint, list);
    dns.setAddresses(endpoint, list);
  }

  const made: CloudFrontHarness['clients'][] = [];
  function clientsWith({ maxAttempts = 1, retryMode = 'standard' }: Retries): CloudFrontHarness['clients'] {
    const common = { region: 'us-east-1', credentials: TEST_CREDENTIALS, maxAttempts, retryMode };
    const clients = {
      cloudFront: new CloudFrontClient({ ...common, endpoint: cloudFront.endpoint }),
      keyValueStore: new CloudFrontKeyValueStoreClient({
        ...common,
        endpoint: cloudFront.kvsEndpoint,
        requestHandler: cloudFront.requestHandler,
      }),
    };
    made.push(clients);
    return clients;
  }

  return {
    cloudFront,
    distribution,
    connectionGroup,
    store,
    shards,
    addShard,
    clients: clientsWith(options.retries ?? {}),
    clientsWith,
    pointAt: (domain, routingEndpoint = connectionGroup.routingEndpoint) => dns.setCname(domain, routingEndpoint),
    pointApexAt: (domain, list = addresses.get(connectionGroup.routingEndpoint) ?? []) =>
      dns.setAddresses(domain, list),
    addressesOf: (endpoint) => addresses.get(endpoint) ?? [],
    async close() {
      for (const clients of made) {
        clients.cloudFront.destroy();
        clients.keyValueStore.destroy();
      }
      await cloudFront.close();
    },
  };
}
