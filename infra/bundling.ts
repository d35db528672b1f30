/**
 * How every Lambda is bundled: the one set of esbuild options used by the CDK stack, the bundle-size
 * check and the benchmarks.
 */
import { join } from 'node:path';
import type { BuildOptions } from 'esbuild';

export const projectRoot = join(import.meta.dirname, '..');

/** Node 24 is Lambda's `nodejs24.x`; the SDK is bundled (tree-shaken) rather than taken from the runtime. */
export const nodeTarget = 'node24';

/** ESM bundles still meet CommonJS dependencies that call `require` for Node built-ins. */
export const esmRequireBanner = "import{createRequire as __cr}from'module';const require=__cr(import.meta.url);";

export const esbuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: nodeTarget,
  minify: true,
  treeShaking: true,
  sourcemap: true,
  mainFields: ['module', 'main'],
  banner: { js: esmRequireBanner },
  external: [],
  legalComments: 'none',
} as const satisfies BuildOptions;

/** Source file of a function, from its route-table name (e.g. `spaces/store`). */
export const functionEntry = (handler: string) => join(projectRoot, 'functions', `${handler}.ts`);
