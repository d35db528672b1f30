/**
 * The size budget of every Lambda bundle, built in memory exactly as the CDK stack builds it
 * (`infra/bundling.ts` options, one entry per route plus the authorizer).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Bundle, bundleAll, contributors, SIZE_BUDGET_BYTES } from '#infra/bundles.ts';
import { authorizerHandler, eventPublisherHandler, routes } from '#lib/routes.ts';

let bundles: Bundle[];

beforeAll(async () => {
  bundles = await bundleAll();
}, 120_000);

describe('bundle size', () => {
  it('bundles every route function, the authorizer and the change feed publisher', () => {
    // Assess
    expect(bundles.map((bundle) => bundle.handler).sort()).toEqual(
      [...routes.map((route) => route.handler), authorizerHandler, eventPublisherHandler].sort(),
    );
  });

  it('keeps the change feed publisher small: it unmarshalls stream records, without a client', () => {
    // Act
    const publisher = bundles.find((bundle) => bundle.handler === eventPublisherHandler);
    const names = contributors(publisher?.metafile as Bundle['metafile']).map((entry) => entry.name);
    // Assess
    expect(names).toContain('@aws-sdk/util-dynamodb');
    expect(names).not.toContain('@aws-sdk/client-dynamodb');
    expect(publisher?.code.length).toBeLessThan(50_000);
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

  it(`keeps every function within ${SIZE_BUDGET_BYTES / 1000} KB minified`, () => {
    // Assess
    const oversized = bundles
      .filter((bundle) => bundle.code.length > SIZE_BUDGET_BYTES)
      .map((bundle) => {
        const top = contributors(bundle.metafile)
          .slice(0, 3)
          .map((entry) => `${entry.name} ${entry.bytes} B`);
        return `${bundle.name}: ${bundle.code.length} B (${top.join(', ')})`;
      });
    expect(oversized, 'functions over the size budget').toEqual([]);
  });
});
