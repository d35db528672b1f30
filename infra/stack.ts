/**
 * One stage of the service: the table, one function per route of the shared route table plus the
 * authorizer, the REST API in front of them with its WAF web ACL, their alarms and dashboard, the change feed
 * onto the event bus, the edge that serves verified domains, and the webhooks' deliveries from the bus.
 */
import { CfnOutput, Duration, Fn, Stack, type StackProps, Tags, Validations } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { AUTHORIZATION_REFUSED } from '#lib/auth/policy.ts';
import { formatAllowedOrigins } from '#lib/platform/origins.ts';
import { authorizerActions, authorizerHandler, eventPublisherHandler, feed, type Route, routes } from '#lib/routes.ts';
import { ApiFunction } from './constructs/api-function.ts';
import { dataTable } from './constructs/data-table.ts';
import { DomainChecks, domainChecksFunction } from './constructs/domain-recheck.ts';
import { Edge, edgeSyncFunction } from './constructs/edge.ts';
import { EdgeQuotas } from './constructs/edge-quotas.ts';
import { EdgeSweep, edgeSweepFunction } from './constructs/edge-sweep.ts';
import { EventFeed } from './constructs/event-feed.ts';
import { Monitoring } from './constructs/monitoring.ts';
import { Api } from './constructs/rest-api.ts';
import { ApiFirewall } from './constructs/waf.ts';
import { WebhookDelivery, webhookDeliverFunction, webhookFanoutFunction } from './constructs/webhook-delivery.ts';
import { routeTimeoutSeconds } from './function-sizing.ts';
import { plansSetting } from './plans.ts';
import { type StageConfig, serviceName } from './stages.ts';

export type ServiceStackProps = StackProps & { config: StageConfig };

export class ServiceStack extends Stack {
  readonly functions = new Map<string, ApiFunction>();
  readonly api: Api;

  constructor(scope: Construct, { config, ...props }: ServiceStackProps) {
    const name = `${serviceName}-${config.stage}`;
    super(scope, name, {
      ...props,
      stackName: name,
      description: `Domains and Spaces API, ${config.stage} stage`,
      // The stage that protects its table from deletion protects its stack too.
      terminationProtection: config.table.deletionProtection,
    });
    Tags.of(this).add('service', serviceName);
    Tags.of(this).add('stage', config.stage);

    const table = dataTable(this, config);
    const newFunction = (id: string, handler: string, description: string, timeout?: Duration) => {
      const fn = new ApiFunction(this, id, { handler, functionName: `${name}-${id}`, description, config, timeout });
      this.functions.set(id, fn);
      return fn;
    };

    const authorizer = newFunction(authorizerHandler, authorizerHandler, 'REQUEST authorizer: API key to owner');
    authorizer.useTable(table, authorizerActions);

    // The HMAC key of the list cursors (lib/http/cursor.ts), generated per stage. Passed as a CloudFormation
    // dynamic reference: the value never appears in the template or the cloud assembly, only in the
    // configuration of the two functions that sign cursors (encrypted at rest). The functions need no
    // Secrets Manager permission and no fetch at cold start, which lib/http/cursor.ts requires synchronously.
    const cursorSecret = new Secret(this, 'cursor-secret', {
      secretName: `${name}/cursor-secret`,
      description: 'HMAC key that signs list page cursors',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: config.removalPolicy,
    });
    Validations.of(cursorSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Automatic rotation would not reach the functions (CloudFormation resolves the dynamic reference only when it updates them) and a new key voids every outstanding page cursor; the key is changed deliberately, see docs/deployment.md.',
    });

    const routeFunctions = routes.map((route) => {
      const description = `${route.methods.join(', ')} ${route.path}`;
      // A route that needs longer than the stage's timeout has its own (`function-sizing.ts`: test-webhook's).
      const own = routeTimeoutSeconds[route.name];
      const timeout = own === undefined ? undefined : Duration.seconds(own);
      // Only the collections' lists query the by-name index; the feed and a webhook's deliveries query the table.
      const fn = newFunction(route.name, route.handler, description, timeout).useTable(table, route.actions, {
        index: route.action === 'list' && route.collection !== feed,
      });
      // Every handler answers with the CORS headers (lib/http/middleware.ts), for the stage's origins.
      fn.addEnvironment('CORS_ALLOWED_ORIGINS', formatAllowedOrigins(config.corsAllowedOrigins));
      return { route, fn };
    });

    // The change feed's enrichment: no table access (the pipe reads the stream).
    const publisher = newFunction('publish-events', eventPublisherHandler, 'Change feed: stream records to bus events');

    this.api = new Api(this, 'api', { config, authorizer, routes: routeFunctions });
    const stage = this.api.restApi.deploymentStage;
    // Per-key and per-IP rate limits and managed rules, before the authorizer or any function runs.
    const firewall = new ApiFirewall(this, 'waf', { config, stage });
    const monitoring = new Monitoring(this, 'monitoring', {
      config,
      stage,
      table,
      functions: this.functions,
      firewall,
      refusals: { function: authorizerHandler, message: AUTHORIZATION_REFUSED },
    });

    const events = new EventFeed(this, 'events', { config, table, publisher, alarms: monitoring.topic });

    // Served domains' redirects. The function answers every request: the origin, the API's own host (the
    // distribution needs one), is never called.
    const { hostname, anycastIpListId, shards: _shards, hostsPerShard: _hosts, ...edgeSettings } = config.edge;
    const edge = new Edge(this, 'edge', {
      config,
      table,
      bus: events.bus,
      alarms: monitoring.topic,
      settings: edgeSettings,
      hostname,
      anycastIpListId,
      originDomainName: `${this.api.restApi.restApiId}.execute-api.${this.region}.${this.urlSuffix}`,
    });
    // Made after the monitoring, whose topic its dead-letter alarm needs: watched like every other function.
    this.functions.set(edgeSyncFunction.name, edge.sync);
    monitoring.watchFunction(edgeSyncFunction.name, edge.sync);
    // The sweep of what hosts no longer served leave, and the alarms on the quotas it measures.
    const edgeShards = edge.shards.map(({ store, distribution }) => ({
      storeArn: store.keyValueStoreArn,
      distributionId: distribution.attrId,
    }));
    const sweep = new EdgeSweep(this, 'edge-sweep', {
      config,
      table,
      shards: edgeShards,
      connectionGroupId: edge.connectionGroup.attrId,
      deadLetters: edge.deadLetters,
    });
    this.functions.set(edgeSweepFunction.name, sweep.function);
    monitoring.watchFunction(edgeSweepFunction.name, sweep.function);
    new EdgeQuotas(this, 'edge-quotas', {
      config,
      alarms: monitoring.topic,
      shards: edgeShards.length,
      limits: { hostsPerShard: config.edge.hostsPerShard },
    });
    // What domain owners point their CNAME at: the stage's own name for the edge, or its routing endpoint.
    const edgeHostname = edge.hostname;

    // The hourly re-check of active domains' records, which compares their CNAME with the edge host name.
    const checks = new DomainChecks(this, 'domain-checks', { config, table, alarms: monitoring.topic });
    checks.function.addEnvironment('EDGE_HOSTNAME', edgeHostname);
    this.functions.set(domainChecksFunction.name, checks.function);
    monitoring.watchFunction(domainChecksFunction.name, checks.function);

    // Webhook deliveries: every change of the bus fanned out to the owner's webhooks, delivered from a queue.
    const webhooks = new WebhookDelivery(this, 'webhooks', {
      config,
      table,
      bus: events.bus,
      alarms: monitoring.topic,
    });
    for (const [{ name: functionName }, fn] of [
      [webhookFanoutFunction, webhooks.fanout],
      [webhookDeliverFunction, webhooks.deliver],
    ] as const) {
      this.functions.set(functionName, fn);
      monitoring.watchFunction(functionName, fn);
    }
    monitoring.addRow(...webhooks.dashboardWidgets());

    // Route settings last: the edge host name exists only now. The functions reference the connection group,
    // which references nothing: no cycle.
    const settings = {
      CURSOR_SECRET: cursorSecret.secretValue.unsafeUnwrap(),
      PLANS: plansSetting(config.plans),
      EDGE_HOSTNAME: edgeHostname,
      // A zone apex's ALIAS target when owners are told a name of the stage's own (a Route 53 alias cannot name it).
      EDGE_ROUTING_ENDPOINT: hostname === undefined ? undefined : edge.routingEndpoint,
    } satisfies Record<NonNullable<Route['settings']>[number], string | undefined>;
    for (const { route, fn } of routeFunctions) {
      for (const setting of route.settings ?? []) {
        const value = settings[setting];
        if (value !== undefined) fn.addEnvironment(setting, value);
      }
    }
    // The fan-out reads up to the largest webhook limit of the plans; the authorizer tells every function the
    // key's rate limit (the web ACL's per-key rule), which each answer's RateLimit-Policy states.
    webhooks.fanout.addEnvironment('PLANS', settings.PLANS);
    authorizer.addEnvironment('RATE_LIMIT_PER_KEY_PER_MINUTE', String(config.rateLimit.perKeyPerMinute));
    // The bus events it publishes carry domains, which name the edge host name too.
    publisher.addEnvironment('EDGE_HOSTNAME', settings.EDGE_HOSTNAME);
    if (settings.EDGE_ROUTING_ENDPOINT)
      publisher.addEnvironment('EDGE_ROUTING_ENDPOINT', settings.EDGE_ROUTING_ENDPOINT);

    new CfnOutput(this, 'ApiUrl', { value: this.api.restApi.url, description: 'Base URL of the API stage' });
    new CfnOutput(this, 'TableName', { value: table.tableName, description: 'For the key tool: --table' });
    new CfnOutput(this, 'EventBusName', {
      value: events.bus.eventBusName,
      description: 'The change feed on EventBridge: route from it with rules on detail.type',
    });
    new CfnOutput(this, 'AlarmTopicArn', { value: monitoring.topic.topicArn, description: 'Subscribe to get alarms' });
    new CfnOutput(this, 'EdgeHostname', {
      value: edgeHostname,
      description: "The CNAME target of served domains: owners point their domain's CNAME here",
    });
    new CfnOutput(this, 'EdgeRoutingEndpoint', {
      value: edge.routingEndpoint,
      description: "The connection group's routing endpoint, which EdgeHostname must resolve to",
    });
    // What the edge's teardown reads (`npm run edge -- teardown`): every shard's distribution, and the group.
    new CfnOutput(this, 'EdgeDistributionIds', {
      value: Fn.join(
        ',',
        edgeShards.map((shard) => shard.distributionId),
      ),
      description: "Every shard's multi-tenant distribution, comma-separated (npm run edge -- teardown)",
    });
    new CfnOutput(this, 'EdgeConnectionGroupId', {
      value: edge.connectionGroup.attrId,
      description: "The connection group of the stage's tenants (npm run edge -- teardown)",
    });
    new CfnOutput(this, 'EdgeDistributionId', {
      value: edge.distribution.attrId,
      description: 'The multi-tenant CloudFront distribution of served domains (one tenant per active domain)',
    });
  }
}
