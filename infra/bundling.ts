/**
 * How every Lambda is bundled: the one set of esbuild options used by the CDK stack, the bundle-size
 * check and the benchmarks.
 */
import { join } from 'node:path';
import type { BuildOptions } from 'esbuild';

export const projectRoot = join(import.meta.dirname, '..');

/** Node 24 is Lambda's `nodejs24.x`; the SDK is bundled (tree-shaken) rather than taken from the runtime. */
export const nodeTarget = 'node24';

/**
 * What an ES-module bundle needs in front of it: CommonJS dependencies call `require` for Node built-ins. The
 * deployed bundles are CommonJS (below), which has `require`; the bench measures the ES-module form with it.
 */
export const esmRequireBanner = "import{createRequire as __cr}from'module';const require=__cr(import.meta.url);";

/**
 * The deployed bundles' module format, chosen by measurement (`npm run bench`, section 1: every function bundled
 * both ways and imported in the same fresh processes, after the modules Lambda's runtime loads first): CommonJS
 * initialised 5.0 % and 5.6 % faster in summed medians in two runs of 2026-11-26 (0.9 ms a function), with the
 * same bundle sizes. The source stays ES modules; only the bundles are CommonJS.
 */
export const deployedFormat = 'cjs';

/**
 * The SDK's default credential chain loads these providers with dynamic `import()` only when no credentials
 * are in the environment. Lambda always sets AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN, so
 * the chain stops at the environment and never reaches them; bundled, they (and the STS/SSO clients they pull
 * in) would add ~125 KB per function. That includes the container and instance-metadata providers (~11 KB),
 * which only ECS, EC2 and similar hosts need.
 */
export const unusedCredentialProviders = [
  '@aws-sdk/credential-provider-ini',
  '@aws-sdk/credential-provider-login',
  '@aws-sdk/credential-provider-process',
  '@aws-sdk/credential-provider-sso',
  '@aws-sdk/credential-provider-web-identity',
  '@aws-sdk/credential-provider-http',
  '@smithy/credential-provider-imds',
];

/**
 * The SDK's protocol code loads its event-stream codec with a dynamic `import()` only for operations that stream
 * events (`HttpProtocol` in `@smithy/core`); DynamoDB, CloudFront and the KeyValueStore have none, so the import
 * never runs here. Bundled, it would add ~15 KB to every function. Left out like the providers above (were it
 * ever run, Lambda's Node runtime carries the SDK to load it from); test/perf/bundle-size.test.ts runs the
 * bundles against DynamoDB Local to show nothing needs it.
 */
export const unusedSdkModules = ['@smithy/core/event-streams'];

export const esbuildOptions = {
  bundle: true,
  platform: 'node',
  format: deployedFormat,
  target: nodeTarget,
  minify: true,
  treeShaking: true,
  sourcemap: true,
  mainFields: ['module', 'main'],
  external: [...unusedCredentialProviders, ...unusedSdkModules],
  legalComments: 'none',
} as const satisfies BuildOptions;

/** Source file of a function, from its route-table name (e.g. `spaces/store`). */
export const functionEntry = (handler: string) => join(projectRoot, 'functions', `${handler}.ts`);
