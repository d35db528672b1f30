/**
 * The stage's edge on the local CloudFront (infra/local/cloudfront), as the stack makes it on AWS: a multi-tenant
 * distribution, a connection group whose routing endpoint is the stage's edge host name (`EDGE_HOSTNAME`, which
 * the local DNS can point a domain at), and a key-value store; then the edge sync's settings and the SDK clients
 * it reaches them through, so `npm start` runs the very sync code the Lambda runs (`cloudFrontEdge`). The local
 * CloudFront issues certificates and deploys tenants at once: `provisioning` passes at once here.
 */
import '@aws-sdk/signature-v4a';
import { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import { CloudFrontKeyValueStoreClient } from '@aws-sdk/client-cloudfront-keyvaluestore';
import { type CloudFrontClients, cloudFrontEdge, type Edge } from '#functions/edge/sync.ts';
import { configuredResolver } from '#lib/dns/resolver.ts';
import type { EdgeConfig } from '#lib/edge/settings.ts';
import { type Config, edgeHostOf } from '#lib/platform/config.ts';
import { type LocalCloudFront, type LocalCloudFrontOptions, startLocalCloudFront } from './cloudfront/index.ts';

/** What the local stack's credentials are: any, as the local CloudFront checks only the signatures' form. */
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

export type LocalStageEdge = {
  cloudFront: LocalCloudFront;
  /** The stage's configuration with the edge sync's settings (the store, distribution, connection group). */
  config: EdgeConfig;
  clients: CloudFrontClients;
  /** The edge as the sync keeps it: the store and the tenants, through the clients. */
  edge: Edge;
  kvsArn: string;
  distributionId: string;
  close(): Promise<void>;
};

export async function startStageEdge(options: {
  config: Config;
  /** What the stage's tenant names start with. */
  tenantPrefix: string;
  /** How many shards (distribution and store each), 1 by default, as the stage's `edge.shards`. */
  shards?: number;
  /** Hosts a shard takes at most. */
  shardCapacity?: number;
  quotas?: LocalCloudFrontOptions['quotas'];
  latencyMs?: LocalCloudFrontOptions['latencyMs'];
  controlPlaneRate?: LocalCloudFrontOptions['controlPlaneRate'];
  host?: string;
  /** The local CloudFront's port (0 or none: any free one). */
  port?: number;
  certificates?: LocalCloudFrontOptions['certificates'];
  deployment?: LocalCloudFrontOptions['deployment'];
  log?: LocalCloudFrontOptions['log'];
}): Promise<LocalStageEdge> {
  const { edgeHostname } = edgeHostOf(options.config);
  // CloudFront checks a new tenant's DNS with its own resolvers; here, the resolver the API's checks ask.
  const dns = configuredResolver(options.config);
  const cloudFront = await startLocalCloudFront({
    dns,
    host: options.host,
    ...(options.port ? { port: options.port } : {}),
    certificates: options.certificates ?? 'issue-at-once',
    deployment: options.deployment ?? 'at-once',
    ...(options.log ? { log: options.log } : {}),
    ...(options.quotas ? { quotas: options.quotas } : {}),
    ...(options.latencyMs ? { latencyMs: options.latencyMs } : {}),
    ...(options.controlPlaneRate === undefined ? {} : { controlPlaneRate: options.controlPlaneRate }),
  });
  // Shard 0 keeps the names a stage had before shards; shard n adds `-n`, as the stack names them.
  const shards = Array.from({ length: options.shards ?? 1 }, (_, shard) => ({
    distribution: cloudFront.createDistribution({ connectionMode: 'tenant-only' }),
    store: cloudFront.createKeyValueStore(`${options.tenantPrefix}-edge${shard === 0 ? '' : `-${shard}`}`),
  }));
  const { distribution, store } = shards[0] as (typeof shards)[number];
  const group = cloudFront.createConnectionGroup({
    name: `${options.tenantPrefix}-edge`,
    routingEndpoint: edgeHostname,
  });
  const config: EdgeConfig = {
    ...options.config,
    edgeKvsArn: store.arn,
    edgeDistributionId: distribution.id,
    edgeShards: shards.map((shard) => ({ kvsArn: shard.store.arn, distributionId: shard.distribution.id })),
    ...(options.shardCapacity === undefined ? {} : { edgeShardCapacity: options.shardCapacity }),
    edgeConnectionGroupId: group.id,
    edgeTenantPrefix: options.tenantPrefix,
  };
  const common = { region: 'us-east-1', credentials: LOCAL_CREDENTIALS };
  const clients: CloudFrontClients = {
    cloudFront: new CloudFrontClient({ ...common, endpoint: cloudFront.endpoint }),
    keyValueStore: new CloudFrontKeyValueStoreClient({
      ...common,
      endpoint: cloudFront.kvsEndpoint,
      requestHandler: cloudFront.requestHandler,
    }),
  };
  return {
    cloudFront,
    config,
    clients,
    edge: cloudFrontEdge(config, clients),
    kvsArn: store.arn,
    distributionId: distribution.id,
    async close() {
      clients.cloudFront.destroy();
      clients.keyValueStore.destroy();
      await cloudFront.close();
    },
  };
}
