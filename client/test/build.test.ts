/**
 * The package builds: `npm run build` (tsc) emits ESM and declarations for everything `package.json` exports,
 * the declarations import only files that exist, and the built module loads and exports the API. It builds into
 * a directory of its own (removed afterwards), not `dist/`.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLIENT = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8'));

let out: string;
beforeAll(async () => {
  // Inside client/, so that the built module resolves openapi-fetch as an installed package would.
  out = await mkdtemp(join(CLIENT, '.build-test-'));
  await promisify(execFile)('npm', ['run', '--silent', 'build', '--', '--outDir', out], { cwd: CLIENT });
}, 60_000);
afterAll(() => rm(out, { recursive: true, force: true }));

/** A path of package.json (`./dist/…`) in the build directory. */
const built = (path: string) => join(out, path.replace(/^\.\/dist\//, ''));

describe('the client package', () => {
  it('builds every file package.json exports, ESM and declarations', () => {
    // Prepare
    const targets = Object.entries(manifest.exports as Record<string, string | Record<string, string>>)
      .filter(([subpath]) => subpath !== './package.json')
      .flatMap(([, target]) => (typeof target === 'string' ? [target] : Object.values(target)));
    // Assess
    expect(manifest).toMatchObject({ type: 'module', types: './dist/index.d.ts', files: ['dist', 'README.md'] });
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    expect(targets.length).toBeGreaterThanOrEqual(4);
    for (const target of [...targets, manifest.types]) expect(existsSync(built(target)), target).toBe(true);
  });

  it('emits declarations whose relative imports all exist', () => {
    // Prepare
    const declarations = readdirSync(out).filter((file) => file.endsWith('.d.ts'));
    // Act
    const missing = declarations.flatMap((file) =>
      [...readFileSync(join(out, file), 'utf8').matchAll(/from '(\.\/[^']+)'/g)]
        .map((match) => (match[1] as string).replace(/\.js$/, '.d.ts'))
        .filter((target) => !existsSync(join(out, target)))
        .map((target) => `${file} → ${target}`),
    );
    // Assess
    expect(declarations).toEqual(expect.arrayContaining(['index.d.ts', 'client.d.ts', 'schema.d.ts']));
    expect(missing).toEqual([]);
  });

  it('loads as ESM and exports the API', async () => {
    // Act
    const client = await import(join(out, 'index.js'));
    // Assess
    expect(Object.keys(client).sort()).toEqual(['ApiError', 'RETRY_DEFAULTS', 'createClient']);
    const api = client.createClient({ baseUrl: 'http://127.0.0.1:1/api/v1', apiKey: 'dsk_x' });
    expect(Object.keys(api)).toEqual(['spaces', 'domains', 'webhooks', 'events', 'account']);
    expect(Object.keys(api.account)).toEqual(['get']);
    expect(Object.keys(api.domains)).toEqual(expect.arrayContaining(['store', 'show', 'list', 'verify']));
  });
});
