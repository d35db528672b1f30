/**
 * The parts of the infrastructure that need no synthesis: stage selection, the settings issue 11 fixes (rate
 * limits, revocation bound), and the bundling translation. Expected values are written out, not read back.
 */
import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { describe, expect, it } from 'vitest';
import { esbuildOptions } from '#infra/bundling.ts';
import { nodejsBundling } from '#infra/constructs/nodejs-bundling.ts';
import { stageConfig, stageNames, stages } from '#infra/stages.ts';

describe('stage selection', () => {
  it('defaults to dev and refuses an unknown stage', () => {
    expect(stageConfig(undefined)).toBe(stages.dev);
    expect(stageConfig('prod')).toBe(stages.prod);
    expect(() => stageConfig('staging')).toThrow('Unknown stage "staging"');
  });

  it('keeps data only in prod', () => {
    expect(stages.prod.table).toEqual({ pointInTimeRecovery: true, deletionProtection: true });
    expect(stages.dev.table).toEqual({ pointInTimeRecovery: false, deletionProtection: false });
  });
});

describe('rate limits and revocation bound', () => {
  it('refuses a revoked or expired key within 60 s on every stage', () => {
    expect(stages.prod.api.authorizerCacheTtl.toSeconds()).toBe(60);
    expect(stages.dev.api.authorizerCacheTtl.toSeconds()).toBe(60);
  });

  it('limits each key to 600 requests a minute on prod and 300 on dev', () => {
    expect(stages.prod.rateLimit).toEqual({ perKeyPerMinute: 600, perIpPerMinute: 3_000 });
    expect(stages.dev.rateLimit).toEqual({ perKeyPerMinute: 300, perIpPerMinute: 1_500 });
  });

  it.each(stageNames)('%s: per IP above a few keys at full rate, and both under the stage-wide throttle', (name) => {
    // Prepare
    const { rateLimit, api } = stages[name];
    const stagePerMinute = api.throttle.rateLimit * 60;
    // Assess: the stage throttle stays the outer bound; AWS WAF accepts limits from 10 up
    expect(rateLimit.perIpPerMinute).toBeGreaterThanOrEqual(5 * rateLimit.perKeyPerMinute);
    expect(rateLimit.perIpPerMinute).toBeLessThan(stagePerMinute);
    expect(rateLimit.perKeyPerMinute).toBeGreaterThanOrEqual(10);
  });
});

describe('NodejsFunction bundling', () => {
  it('builds with the shared esbuild options, locally and never in Docker', () => {
    // Act
    const bundling = nodejsBundling();
    // Assess
    expect(bundling).toMatchObject({
      format: OutputFormat.CJS,
      minify: esbuildOptions.minify,
      sourceMap: esbuildOptions.sourcemap,
      target: esbuildOptions.target,
      mainFields: esbuildOptions.mainFields,
      externalModules: esbuildOptions.external,
      forceDockerBundling: false,
      esbuildArgs: {
        '--tree-shaking': String(esbuildOptions.treeShaking),
        '--legal-comments': esbuildOptions.legalComments,
      },
    });
    expect(bundling.externalModules).not.toContain('@aws-sdk/client-dynamodb');
    expect(bundling.externalModules).not.toContain('@aws-sdk/*');
  });
});
