/**
 * The README's key examples, run as written (bash, the key tool against this file's table): each `create`
 * makes a key, today and on any later day, because no example names a fixed date (one computed in the shell
 * stays in the future).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/bundling.ts';
import { config } from '#test/support/database.ts';

const run = promisify(execFile);
const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
const docs = ['README.md', 'docs/deployment.md', 'docs/api.md'].map((file) => ({
  file,
  text: readFileSync(join(projectRoot, file), 'utf8'),
}));

/** The shell block of the README's keys section, its continued lines joined. */
function keysBlock(): string[] {
  const section = readme.slice(readme.indexOf('## Keys, scopes and limits'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.replace(/\\\n\s*/g, '').split('\n');
}

describe("the README's key examples", () => {
  it('name no fixed date for --expires-at, which would one day be past', () => {
    // Act
    const fixed = docs.flatMap(({ file, text }) =>
      [...text.matchAll(/--expires-at[ =]+["']?\d{4}-\d{2}-\d{2}/g)].map((match) => `${file}: ${match[0]}`),
    );
    // Assess
    expect(fixed).toEqual([]);
  });

  it('each create a key, run as written', { timeout: 180_000 }, async () => {
    // Prepare: the block's create lines, with the tool pointed at this file's table
    const creates = keysBlock().filter((line) => line.startsWith('npm run --silent keys -- create'));
    const table = `--table ${config.tableName} --endpoint ${config.dynamodbEndpoint}`;
    expect(creates.length).toBeGreaterThanOrEqual(3);
    expect(creates.some((line) => line.includes('--expires-at'))).toBe(true);
    // Act
    const outputs = [];
    for (const line of creates) {
      const command = `${line.replace('npm run --silent keys --', 'npx tsx scripts/keys.ts')} ${table}`;
      const { stdout } = await run('bash', ['-c', command], {
        cwd: projectRoot,
        env: { ...process.env, AWS_REGION: 'local', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' },
        timeout: 60_000,
      });
      outputs.push(stdout.trimEnd().split('\n').at(-1));
    }
    // Assess: a key alone on the last line of each
    for (const key of outputs) expect(key).toMatch(/^dsk_[A-Za-z0-9_-]{43}$/);
  });
});
