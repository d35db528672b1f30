/**
 * The edge's CloudFront Function (`functions/edge/viewer-request.js`), as CDK deploys it and as the local edge
 * runs it: the same file, with its one settings line written for the stage. The local edge evaluates it in a
 * sandbox (no Node APIs, as at CloudFront), the `cloudfront` module replaced by a local key-value store.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { projectRoot } from './bundling.ts';

export const EDGE_FUNCTION_FILE = join(projectRoot, 'functions', 'edge', 'viewer-request.js');

/** A stage's edge settings, written into the function's settings line. */
export type EdgeSettings = {
  /** Where `/` of a served domain without an index page of its own redirects: a URL, or '' for none (404). */
  defaultIndexPage: string;
  /** Where any other path of a served domain without a not-found page of its own redirects: a URL, or ''. */
  defaultNotFoundPage: string;
  /** How long a redirect or a 404 may be cached (`Cache-Control: public, max-age`), in seconds. */
  cacheSeconds: number;
};

/** What CloudFront's `cf.kvs()` handle offers the function: `get` throws for a key the store does not hold. */
export type KeyValueReader = { get(key: string, options?: { format?: 'string' | 'json' }): Promise<unknown> };

/** A viewer-request event, as much of it as the function reads (CloudFront Functions event structure 1.0). */
export type EdgeRequest = { method: string; uri: string; headers: Record<string, { value: string }> };
export type EdgeResponse = {
  statusCode: number;
  statusDescription?: string;
  headers?: Record<string, { value: string }>;
  body?: { encoding: 'text'; data: string };
};

const SETTINGS_LINE = /^const SETTINGS = .*;$/m;
const IMPORT_LINE = "import cf from 'cloudfront';";

/** The function's source for a stage: its settings line written with these settings. */
export function edgeFunctionSource(settings: EdgeSettings): string {
  const source = readFileSync(EDGE_FUNCTION_FILE, 'utf8');
  if (!SETTINGS_LINE.test(source)) throw new Error(`${EDGE_FUNCTION_FILE} has no settings line`);
  return source.replace(SETTINGS_LINE, () => `const SETTINGS = ${JSON.stringify(settings)};`);
}

/** Runs the function as CloudFront would: its `handler`, given a store for `cf.kvs()`. */
export function loadEdgeFunction(
  settings: EdgeSettings,
  store: KeyValueReader,
): (event: { request: EdgeRequest }) => Promise<EdgeResponse> {
  const source = edgeFunctionSource(settings);
  if (!source.includes(IMPORT_LINE)) throw new Error(`${EDGE_FUNCTION_FILE} does not import cloudfront`);
  const script = `${source.replace(IMPORT_LINE, 'const cf = __cloudfront;')}\nhandler;`;
  const context = vm.createContext({ __cloudfront: { kvs: () => store } });
  return vm.runInContext(script, context, { filename: EDGE_FUNCTION_FILE, timeout: 1_000 });
}
