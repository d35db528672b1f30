/**
 * The shared esbuild options (`infra/bundling.ts`) as NodejsFunction bundling props, so the deployed
 * bundles are built exactly like the bundle-size check and the benchmarks build them.
 */
import { type BundlingOptions, LogLevel, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { esbuildOptions } from '../bundling.ts';

type Options = typeof esbuildOptions;

/**
 * One entry per esbuild option: adding an option to `infra/bundling.ts` fails the type check until it is
 * translated here. NodejsFunction always passes `--bundle` and `--platform=node`, hence the literal types.
 */
const translations: { [Key in keyof Options]: (value: Options[Key]) => Partial<BundlingOptions> } = {
  bundle: (_always: true) => ({}),
  platform: (_always: 'node') => ({}),
  format: (format: 'esm' | 'cjs') => ({ format: format === 'esm' ? OutputFormat.ESM : OutputFormat.CJS }),
  target: (target) => ({ target }),
  minify: (minify) => ({ minify }),
  treeShaking: (treeShaking) => ({ esbuildArgs: { '--tree-shaking': String(treeShaking) } }),
  sourcemap: (sourceMap) => ({ sourceMap }),
  mainFields: (mainFields) => ({ mainFields: [...mainFields] }),
  // Only what infra/bundling.ts lists stays out; the AWS SDK is bundled and tree-shaken, not taken from the runtime.
  external: (external) => ({ externalModules: [...external] }),
  legalComments: (legalComments) => ({ esbuildArgs: { '--legal-comments': legalComments } }),
};

function translate<Key extends keyof Options>(key: Key): Partial<BundlingOptions> {
  return translations[key](esbuildOptions[key]);
}

/** Bundling props for every function: local esbuild from the devDependencies, never Docker. */
export function nodejsBundling(): BundlingOptions {
  const parts = (Object.keys(esbuildOptions) as (keyof Options)[]).map(translate);
  const esbuildArgs = Object.assign({}, ...parts.map((part) => part.esbuildArgs ?? {}));
  return { ...Object.assign({}, ...parts), esbuildArgs, forceDockerBundling: false, logLevel: LogLevel.WARNING };
}
