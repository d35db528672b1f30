/**
 * A stage that tells domain owners a name of its own (`edge.hostname`, itself a CNAME to the routing endpoint):
 * the functions that show domains are given the routing endpoint too, the target of a zone apex's ALIAS. A
 * Route 53 alias targets an AWS resource or a record in its own hosted zone ("Choosing between alias and
 * non-alias records", Route 53 Developer Guide), so an apex cannot alias the stage's name in another zone. The
 * stages of `infra/stages.ts` (no name of their own) are asserted in stack.test.ts: they get no such setting.
 */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ServiceStack } from '#infra/stack.ts';
import { stages } from '#infra/stages.ts';
import { routes } from '#lib/routes.ts';

type Resource = { Type: string; Properties: Record<string, unknown> };
let resources: Record<string, Resource>;

beforeAll(() => {
  // No bundling: the environment is what is asserted (the bundles have their own tests).
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const config = { ...stages.prod, edge: { ...stages.prod.edge, hostname: 'edge.example.net' } };
  const stack = new ServiceStack(app, { config });
  resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
});

/** Each function's environment, by its name after the stack's. */
const environments = () =>
  new Map(
    Object.values(resources)
      .filter((resource) => resource.Type === 'AWS::Lambda::Function')
      .map((resource) => [
        String(resource.Properties.FunctionName).replace('domains-spaces-prod-', ''),
        (resource.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {},
      ]),
  );

describe('a stage with its own edge host name', () => {
  it("gives every function that shows domains the connection group's routing endpoint beside that name", () => {
    // Prepare
    const [groupId] = Object.entries(resources).find(([, r]) => r.Type === 'AWS::CloudFront::ConnectionGroup') ?? [];
    const showing = [
      ...routes.filter((route) => route.settings?.includes('EDGE_HOSTNAME')).map((route) => route.name),
      // The bus's publisher, whose events carry domains
      'publish-events',
    ];
    // Act
    const given = environments();
    // Assess: the domain routes but delete, the feed and the bus publisher; nothing else
    expect(showing.sort()).toEqual(
      [
        'list-domains',
        'show-domain',
        'store-domain',
        'update-domain',
        'verify-domain',
        'list-events',
        'publish-events',
      ].sort(),
    );
    for (const name of showing) {
      expect(given.get(name)?.EDGE_HOSTNAME, name).toBe('edge.example.net');
      expect(given.get(name)?.EDGE_ROUTING_ENDPOINT, name).toEqual({ 'Fn::GetAtt': [groupId, 'RoutingEndpoint'] });
    }
    const others = [...given].filter(([name]) => !showing.includes(name));
    expect(others.length).toBeGreaterThan(10);
    for (const [name, env] of others) expect(env.EDGE_ROUTING_ENDPOINT, name).toBeUndefined();
  });
});
