/**
 * The import rules of `.dependency-cruiser.cjs`, which `npm run lint` checks: each rule fires on a small fixture
 * written for it (so a config that resolves nothing cannot pass), and the real tree breaks none of them.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseOptions, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

let options: ICruiseOptions;

beforeAll(async () => {
  options = await extractDepcruiseOptions(join(root, '.dependency-cruiser.cjs'));
});

async function violationsIn(baseDir: string, paths: string[]) {
  const { output } = await cruise(paths, { ...options, baseDir, validate: true });
  return (output as ICruiseResult).summary;
}

/** `rule: from → to`, or the cycle for `no-circular`. */
const describeViolation = (violation: IViolation) =>
  `${violation.rule.name}: ${violation.from} → ${violation.cycle ? violation.cycle.map((step) => step.name).join(' → ') : violation.to}`;

describe('the import rules, on a fixture', () => {
  let fixture: string;

  const files: Record<string, string> = {
    'package.json': JSON.stringify({
      type: 'module',
      imports: { '#lib/*': './lib/*', '#test/*': './test/*', '#scripts/*': './scripts/*' },
    }),
    // Two DynamoDB packages, enough to resolve.
    'node_modules/@aws-sdk/client-dynamodb/package.json': JSON.stringify({ name: '@aws-sdk/client-dynamodb' }),
    'node_modules/@aws-sdk/client-dynamodb/index.js': 'export class DynamoDBClient {}\n',
    'node_modules/@aws-sdk/lib-dynamodb/package.json': JSON.stringify({ name: '@aws-sdk/lib-dynamodb' }),
    'node_modules/@aws-sdk/lib-dynamodb/index.js': 'export class GetCommand {}\n',
    // A cycle through subpath imports, closed by a type-only import.
    'lib/a.ts': "import { b } from '#lib/b.ts';\nexport const a = () => b;\n",
    'lib/b.ts': "import type { a } from '#lib/a.ts';\nexport const b = 1;\nexport type A = typeof a;\n",
    // A cycle through relative imports.
    'lib/c.ts': "import { d } from './d.ts';\nexport const c = () => d;\n",
    'lib/d.ts': "import { c } from './c.ts';\nexport const d = () => c;\n",
    // The data layer (the adapters' floor) reaching into the HTTP layer, by subpath and by relative path.
    'lib/http/body.ts': 'export const body = 1;\n',
    'lib/http/errors.ts': 'export class NotFound extends Error {}\n',
    'lib/data/items.ts': "import { body } from '#lib/http/body.ts';\nexport const items = body;\n",
    'lib/data/guards.ts': "import { NotFound } from '../http/errors.ts';\nexport const guard = NotFound;\n",
    // The SDK: allowed in the data layer, lib/data/dynamodb.ts and the tests, not elsewhere in lib/.
    'lib/data/table.ts': "import { GetCommand } from '@aws-sdk/lib-dynamodb';\nexport const get = GetCommand;\n",
    'lib/data/dynamodb.ts':
      "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nexport const client = DynamoDBClient;\n",
    'lib/presenter.ts': "import type { GetCommand } from '@aws-sdk/lib-dynamodb';\nexport type Get = GetCommand;\n",
    'test/support.ts': "import { GetCommand } from '@aws-sdk/lib-dynamodb';\nexport const get = GetCommand;\n",
    // Layers, told by folder: the platform reaching up to the data layer, a concept's rules to its storage, a
    // job to the HTTP layer, the HTTP layer to the document; a module in no layer's folder.
    'lib/platform/config.ts': "import { items } from '#lib/data/items.ts';\nexport const config = items;\n",
    'lib/kinds.ts': 'export const kinds = 1;\n',
    'lib/domains/rules/names.ts': "import { row } from '#lib/domains/data/rows.ts';\nexport const names = row;\n",
    'lib/domains/data/rows.ts': "import { kinds } from '#lib/kinds.ts';\nexport const row = kinds;\n",
    'lib/domains/recheck.ts': "import { NotFound } from '#lib/http/errors.ts';\nexport const check = NotFound;\n",
    'lib/openapi/document.ts': 'export const document = 1;\n',
    'lib/registry.ts': "import { document } from '#lib/openapi/document.ts';\nexport const registry = document;\n",
    'lib/stray.ts': "import { kinds } from '#lib/kinds.ts';\nexport const stray = kinds;\n",
    // A concept reaching into another's storage (allowed: its rules), and into another's API from the HTTP layer.
    'lib/spaces/data/spaces.ts':
      "import { row } from '#lib/domains/data/rows.ts';\nimport { names } from '#lib/domains/rules/names.ts';\nexport const spaces = [row, names];\n",
    'lib/webhooks/api/present.ts': 'export const present = 1;\n',
    'lib/http/feed.ts': "import { present } from '#lib/webhooks/api/present.ts';\nexport const feed = present;\n",
    // The generic store reaching into a concept's storage.
    'lib/data/counts.ts': "import { row } from '#lib/domains/data/rows.ts';\nexport const counts = row;\n",
    // The local stack reaching into the operator's scripts.
    'scripts/tool.ts': 'export const tool = 1;\n',
    'infra/local/start.ts': "import { tool } from '#scripts/tool.ts';\nexport const start = tool;\n",
    // lib/ reaching into the tests; an import that resolves to nothing.
    'lib/clock.ts': "import { get } from '#test/support.ts';\nexport const clock = get;\n",
    'lib/ghost.ts': "import { gone } from '#lib/nowhere.ts';\nexport const ghost = gone;\n",
  };

  beforeAll(async () => {
    fixture = await mkdtemp(join(tmpdir(), 'architecture-'));
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(fixture, path)), { recursive: true });
      await writeFile(join(fixture, path), text);
    }
  });

  afterAll(async () => {
    await rm(fixture, { recursive: true, force: true });
  });

  it('reports every broken rule by name, and nothing that is allowed', async () => {
    // Act
    const summary = await violationsIn(fixture, ['lib', 'test', 'infra', 'scripts']);
    // Assess
    expect(summary.violations.map(describeViolation).sort()).toEqual(
      [
        'dynamodb-sdk-only-in-data-layer: lib/presenter.ts → node_modules/@aws-sdk/lib-dynamodb/index.js',
        'layer-data: lib/data/guards.ts → lib/http/errors.ts',
        'layer-data: lib/data/items.ts → lib/http/body.ts',
        'layer-platform: lib/platform/config.ts → lib/data/items.ts',
        'layer-rules: lib/domains/rules/names.ts → lib/domains/data/rows.ts',
        'layer-services: lib/domains/recheck.ts → lib/http/errors.ts',
        'layer-http: lib/registry.ts → lib/openapi/document.ts',
        'concept-through-rules: lib/spaces/data/spaces.ts → lib/domains/data/rows.ts',
        'concept-api-from-the-map: lib/http/feed.ts → lib/webhooks/api/present.ts',
        'generic-store-knows-no-kind: lib/data/counts.ts → lib/domains/data/rows.ts',
        'local-stack-not-to-scripts: infra/local/start.ts → scripts/tool.ts',
        // The fixture's other modules stand in no layer's folder, so this rule names each of their imports.
        'lib-in-a-layer: lib/a.ts → lib/b.ts',
        'lib-in-a-layer: lib/b.ts → lib/a.ts',
        'lib-in-a-layer: lib/c.ts → lib/d.ts',
        'lib-in-a-layer: lib/clock.ts → test/support.ts',
        'lib-in-a-layer: lib/d.ts → lib/c.ts',
        'lib-in-a-layer: lib/ghost.ts → #lib/nowhere.ts',
        'lib-in-a-layer: lib/presenter.ts → node_modules/@aws-sdk/lib-dynamodb/index.js',
        'lib-in-a-layer: lib/stray.ts → lib/kinds.ts',
        'lib-not-to-tooling: lib/clock.ts → test/support.ts',
        'no-circular: lib/a.ts → lib/b.ts → lib/a.ts',
        'no-circular: lib/c.ts → lib/d.ts → lib/c.ts',
        'not-to-unresolvable: lib/ghost.ts → #lib/nowhere.ts',
      ].sort(),
    );
  });
});

describe('the import rules, on this tree', () => {
  it('are broken nowhere', async () => {
    // Prepare: the folders `npm run lint` cruises.
    const lint = (JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { scripts: { lint: string } })
      .scripts.lint;
    const folders = /depcruise ((?:[\w-]+ )+)--config/.exec(lint)?.[1]?.trim().split(' ') ?? [];
    // Act
    const summary = await violationsIn(root, folders);
    // Assess: the cruise read the tree (subpath imports resolved), and found nothing.
    expect(folders).toEqual(['lib', 'functions', 'infra', 'scripts', 'bench', 'test']);
    expect(summary.totalCruised).toBeGreaterThan(150);
    expect(summary.violations.map(describeViolation)).toEqual([]);
  });
});

describe('what ships reads and scans', () => {
  /** Code without its comments (which may name what the code does not do). */
  const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

  /** The source files of lib/ and functions/ (what is bundled), with their code. */
  async function shipped(): Promise<{ path: string; text: string }[]> {
    const { glob } = await import('node:fs/promises');
    const files: { path: string; text: string }[] = [];
    for await (const path of glob(['lib/**/*.ts', 'functions/**/*.{ts,js}'], { cwd: root })) {
      files.push({ path, text: code(await readFile(join(root, path), 'utf8')) });
    }
    return files;
  }

  it('reads the process environment in one module', async () => {
    // Act
    const readers = (await shipped()).filter((file) => /process\.env\b/.test(file.text)).map((file) => file.path);
    // Assess
    expect(readers).toEqual(['lib/platform/cold-start.ts']);
  });

  it('scans the table only in the operator’s one-off migrations', async () => {
    // Act
    const scanners = (await shipped()).filter((file) => /\b(ScanCommand|paginateScan)\b/.test(file.text));
    // Assess
    expect(scanners.length).toBeGreaterThan(0);
    for (const { path } of scanners) expect(path).toMatch(/^lib\/([^/]+\/)?data\/migrations\//);
  });
});
