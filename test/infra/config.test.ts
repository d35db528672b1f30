/** The parts of the infrastructure that need no synthesis: stage selection and the bundling translation. */
import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { describe, expect, it } from 'vitest';
import { esbuildOptions } from '#infra/bundling.ts';
import { nodejsBundling } from '#infra/constructs/nodejs-bundling.ts';
import { stageConfig, stages } from '#infra/stages.ts';

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

describe('NodejsFunction bundling', () => {
  it('builds with the shared esbuild options, locally and never in Docker', () => {
    // Act
    const bundling = nodejsBundling();
    // Assess
    expect(bundling).toMatchObject({
      format: OutputFormat.ESM,
      minify: esbuildOptions.minify,
      sourceMap: esbuildOptions.sourcemap,
      target: esbuildOptions.target,
      mainFields: esbuildOptions.mainFields,
      banner: esbuildOptions.banner.js,
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
