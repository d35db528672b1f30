/**
 * Every file or folder a comment or a document names by its path exists: a move that forgets a comment
 * leaves a reader looking for a file that is gone. Paths are read where they are written as paths (from a
 * top-level folder of the repository, `lib/http/errors.ts`, `docs/`); patterns (`lib/<kind>/`, `*.ts`) are
 * not paths and are left alone.
 */
import { existsSync } from 'node:fs';
import { glob, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const TOP = ['lib', 'functions', 'infra', 'scripts', 'bench', 'test', 'docs', 'client'];
/** `lib/a/b.ts`, `infra/local/`, after anything but a path character, up to the end of the path. */
const PATH = new RegExp(`(?<![\\w./#@$-])((?:${TOP.join('|')})/[\\w./*<>{}-]*)`, 'g');
/** Paths that are not this repository's: a generated client's, a results folder written when a bench runs. */
const NOT_OURS = [/^bench\/results\//, /^client\/(dist|node_modules)(\/|$)/, /^lib\/dynamodb_local_/];
/** Files whose comments describe fixtures, not this tree. */
const FIXTURES = ['test/contract/architecture.test.ts', 'test/contract/named-paths.test.ts'];

async function sources() {
  const files: string[] = [];
  for await (const path of glob(
    [
      '{lib,functions,infra,scripts,bench,test,client/src,client/scripts}/**/*.{ts,js,cjs}',
      '*.md',
      'docs/**/*.md',
      '.dependency-cruiser.cjs',
    ],
    { cwd: root, exclude: (name) => name === 'node_modules' || name === 'results' },
  ))
    if (!FIXTURES.includes(path)) files.push(path);
  return files;
}

/**
 * The comments of a source file, or a Markdown file but for the tables of docs/performance.md, which record
 * the modules of each bundle as they were when measured (`npm run bench` writes them anew).
 */
function prose(path: string, text: string) {
  if (path === 'docs/performance.md') return text.replace(/^\|.*$/gm, '');
  if (path.endsWith('.md')) return text;
  return [...text.matchAll(/\/\*[\s\S]*?\*\/|\/\/.*$/gm)].map((match) => match[0]).join('\n');
}

describe('the paths comments and documents name', () => {
  it('all exist', async () => {
    // Prepare
    const missing: string[] = [];
    let checked = 0;
    // Act
    for (const file of await sources()) {
      const text = prose(file, await readFile(join(root, file), 'utf8'));
      for (const [, written] of text.matchAll(PATH)) {
        const path = written?.replace(/[.-]+$/, '');
        if (!path || NOT_OURS.some((pattern) => pattern.test(path)) || /[<>{}*]/.test(path)) continue;
        checked++;
        if (!existsSync(join(root, path))) missing.push(`${file}: ${path}`);
      }
    }
    // Assess: the scan found paths to check (so a broken pattern cannot pass), and none is gone.
    expect(checked).toBeGreaterThan(300);
    expect(missing).toEqual([]);
  });
});
