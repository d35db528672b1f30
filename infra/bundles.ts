/**
 * Every function bundled in memory exactly as the CDK stack bundles it (the shared esbuild options and entry
 * points), with what each package contributes and its size budget: read by the bundle-size test and the
 * benchmarks.
 */
import { join } from 'node:path';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { authorizerHandler, eventPublisherHandler, routes } from '#lib/routes.ts';
import { esbuildOptions, functionEntry, projectRoot } from './bundling.ts';
import { domainChecksFunction } from './constructs/domain-recheck.ts';
import { edgeSyncFunction } from './constructs/edge.ts';
import { edgeSweepFunction } from './constructs/edge-sweep.ts';
import { webhookDeliverFunction, webhookFanoutFunction } from './constructs/webhook-delivery.ts';

/** Budgets from the performance issue. 1 KB = 1,000 bytes, the stricter reading. */
export const SIZE_BUDGET_BYTES = 250_000;
/** Module init of every function, as a share of the "SDK client only" module (ESM) measured in the same run. */
export const INIT_BUDGET_RATIO = 0.8;

/**
 * The edge sync's own budget, about 15 % over its measured 451,671 B (esbuild 0.28.2, @aws-sdk/client-cloudfront
 * 3.1164.0). Of these, client-cloudfront is 139 KB whichever commands are imported: its error classes (45 KB)
 * are all registered when it loads, and its schemas (85 KB) all stay, as they are objects with computed keys,
 * which esbuild cannot prove free of side effects. Then the SigV4A signer the key-value store's API needs
 * (37 KB), and the DynamoDB client and SDK core every function has.
 */
export const EDGE_SYNC_BUDGET_BYTES = 520_000;

/**
 * The edge sweep's own budget, about 15 % over its measured 453,929 B (esbuild 0.28.2, @aws-sdk/client-acm
 * 3.1169.0): the edge sync's CloudFront, KeyValueStore and SigV4A code, and ACM's client beside it.
 */
export const EDGE_SWEEP_BUDGET_BYTES = 520_000;

/**
 * The webhook delivery function's own budget, about 15 % over its measured 253,854 B (esbuild 0.28.2,
 * @aws-sdk/client-sqs 3.1175.0): the DynamoDB client every function has and the SQS client beside it (24 KB,
 * ChangeMessageVisibility), with the delivery itself (Node's https, the address checks, the signature).
 */
export const WEBHOOK_DELIVER_BUDGET_BYTES = 290_000;

/** A deployed function's bundle; `budgetBytes` when it has a size budget of its own (else SIZE_BUDGET_BYTES). */
export type BundleTarget = { name: string; handler: string; budgetBytes?: number };

/**
 * Every deployed function: one per route, plus the authorizer, the change feed's publisher, the edge sync, the
 * hourly domain re-check, and the webhooks' fan-out and delivery.
 */
export const bundleTargets: readonly BundleTarget[] = [
  ...routes.map((route) => ({
    name: route.name,
    handler: route.handler,
  })),
  { name: 'authorizer', handler: authorizerHandler },
  { name: 'publish-events', handler: eventPublisherHandler },
  { ...edgeSyncFunction, budgetBytes: EDGE_SYNC_BUDGET_BYTES },
  { ...edgeSweepFunction, budgetBytes: EDGE_SWEEP_BUDGET_BYTES },
  { ...domainChecksFunction },
  { ...webhookFanoutFunction },
  { ...webhookDeliverFunction, budgetBytes: WEBHOOK_DELIVER_BUDGET_BYTES },
];

/** The bundle's file name in a function's asset: CommonJS, `index.js` (an ES module would be `index.mjs`). */
export const BUNDLE_FILE = 'index.js';

/** A target's size budget: its own, or the one every API function has. */
export const budgetOf = (target: BundleTarget) => target.budgetBytes ?? SIZE_BUDGET_BYTES;

export type Bundle = BundleTarget & { code: Uint8Array; map: Uint8Array | undefined; metafile: Metafile };

/** Bundles one function in memory, with the stack's options; nothing is written. */
export async function bundleFunction(target: BundleTarget, overrides: BuildOptions = {}): Promise<Bundle> {
  const result = await build({
    ...esbuildOptions,
    entryPoints: [functionEntry(target.handler)],
    // Only names the output (nothing is written): `index.js`, as the stack's CommonJS bundles are named.
    outfile: join(projectRoot, 'cdk.out', 'bundles', target.name, BUNDLE_FILE),
    ...overrides,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles.find((file) => !file.path.endsWith('.map'));
  if (!code) throw new Error(`esbuild produced no code for ${target.handler}`);
  const map = result.outputFiles.find((file) => file.path.endsWith('.map'));
  return { ...target, code: code.contents, map: map?.contents, metafile: result.metafile };
}

/** All functions, bundled concurrently (esbuild parallelises internally too). */
export const bundleAll = () => Promise.all(bundleTargets.map((target) => bundleFunction(target)));

/** Groups a metafile input path: an npm package, or the project folder it lives in. */
export function contributorOf(path: string): string {
  const pkg = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1] as string;
  const parts = path.split('/');
  return parts.length > 2 ? `${parts.slice(0, 2).join('/')}/` : path;
}

export type Contributor = { name: string; bytes: number };

export function contributors(metafile: Metafile): Contributor[] {
  const output = Object.values(metafile.outputs).find((entry) => entry.entryPoint);
  const totals = new Map<string, number>();
  for (const [path, input] of Object.entries(output?.inputs ?? {})) {
    const name = contributorOf(path);
    totals.set(name, (totals.get(name) ?? 0) + input.bytesInOutput);
  }
  return [...totals]
    .map(([name, bytes]) => ({ name, bytes }))
    .filter((entry) => entry.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
}
