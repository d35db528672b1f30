/**
 * The size budget of every Lambda bundle, built in memory exactly as the CDK stack builds it
 * (`infra/bundling.ts` options, one entry per route plus the authorizer, the publisher, the edge sync, the
 * re-check and the webhooks' fan-out and delivery).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Bundle, budgetOf, bundleAll, contributors, SIZE_BUDGET_BYTES } from '#infra/bundles.ts';
import { domainChecksFunction } from '#infra/constructs/domain-recheck.ts';
import { edgeSyncFunction } from '#infra/constructs/edge.ts';
import { edgeSweepFunction } from '#infra/constructs/edge-sweep.ts';
import { webhookDeliverFunction, webhookFanoutFunction } from '#infra/constructs/webhook-delivery.ts';
import { authorizerHandler, eventPublisherHandler, routes } from '#lib/routes.ts';

let bundles: Bundle[];

beforeAll(async () => {
  bundles = await bundleAll();
}, 120_000);

describe('bundle size', () => {
  it("bundles every route function, the authorizer, the change feed publisher, the edge sync, the re-check and the webhooks' fan-out and delivery", () => {
    // Assess
    expect(bundles.map((bundle) => bundle.handler).sort()).toEqual(
      [
        ...routes.map((route) => route.handler),
        authorizerHandler,
        eventPublisherHandler,
        edgeSyncFunction.handler,
        edgeSweepFunction.handler,
        domainChecksFunction.handler,
        webhookFanoutFunction.handler,
        webhookDeliverFunction.handler,
      ].sort(),
    );
  });

  it('keeps the change feed publisher small: it unmarshalls stream records, without a client', () => {
    // Act
    const publisher = bundles.find((bundle) => bundle.handler === eventPublisherHandler);
    const names = contributors(publisher?.metafile as Bundle['metafile']).map((entry) => entry.name);
    // Assess
    expect(names).toContain('@aws-sdk/util-dynamodb');
    expect(names).not.toContain('@aws-sdk/client-dynamodb');
    // Nor the settings schema: its one setting is read without valibot (lib/platform/cold-start.ts).
    expect(names).not.toContain('valibot');
    // It presents domains, whose names it shows as a browser would (lib/domains/rules/idn.ts, Chromium's policy on UTS #39's
    // script data): about 5 KB of the budget (11.6 KB in all when it came, from 6.6).
    expect(publisher?.code.length).toBeLessThan(16_000);
  });

  it('bundles the code itself: the SDK and our handler, minified', () => {
    // Assess: a bundle that lost the SDK or the handler would pass the budget for the wrong reason.
    for (const bundle of bundles.filter((each) => each.handler !== eventPublisherHandler)) {
      const names = contributors(bundle.metafile).map((entry) => entry.name);
      expect(names, bundle.name).toContain('@aws-sdk/client-dynamodb');
      expect(
        names.some((name) => name.startsWith('functions/')),
        bundle.name,
      ).toBe(true);
      expect(bundle.code.length, bundle.name).toBeGreaterThan(50_000);
    }
  });

  it(`keeps every function within its budget minified: ${SIZE_BUDGET_BYTES / 1000} KB unless it has its own`, () => {
    // Assess
    const oversized = bundles
      .filter((bundle) => bundle.code.length > budgetOf(bundle))
      .map((bundle) => {
        const top = contributors(bundle.metafile)
          .slice(0, 3)
          .map((entry) => `${entry.name} ${entry.bytes} B`);
        return `${bundle.name}: ${bundle.code.length} B over ${budgetOf(bundle)} B (${top.join(', ')})`;
      });
    expect(oversized, 'functions over their size budget').toEqual([]);
  });

  it('gives only the edge sync and sweep and the webhook delivery (several SDK clients each, off the request path) budgets of their own', () => {
    // Assess
    const own = bundles.filter((bundle) => bundle.budgetBytes !== undefined).map((bundle) => bundle.name);
    expect(own.sort()).toEqual([edgeSyncFunction.name, edgeSweepFunction.name, webhookDeliverFunction.name].sort());
  });

  it('leaves out the SDK code DynamoDB never runs: the unused credential providers and the event-stream codec', () => {
    // Assess: imported dynamically only when needed, kept as imports (external), not bundled
    for (const bundle of bundles) {
      const inputs = Object.keys(bundle.metafile.inputs);
      expect(
        inputs.filter((path) => /event-streams|credential-provider-(ini|sso|process)/.test(path)),
        bundle.name,
      ).toEqual([]);
    }
  });

  it('gives the edge sync a budget of its own, above the API budget, for the CloudFront clients it carries', () => {
    // Act
    const sync = bundles.find((bundle) => bundle.name === edgeSyncFunction.name);
    const names = contributors(sync?.metafile as Bundle['metafile']).map((entry) => entry.name);
    // Assess
    expect(sync?.budgetBytes).toBeGreaterThan(SIZE_BUDGET_BYTES);
    expect(names).toEqual(
      expect.arrayContaining(['@aws-sdk/client-cloudfront', '@aws-sdk/client-cloudfront-keyvaluestore']),
    );
  });
});
