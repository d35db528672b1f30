import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/bundling.ts';
import type { Gateway } from '#infra/local/gateway.ts';
import { config } from '#test/support/database.ts';
import { startTestGateway } from '#test/support/http.ts';
import { keyClient, UNAUTHENTICATED } from './helpers.ts';

const run = promisify(execFile);

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

/** Runs the key tool as a user would, against this file's table on the test DynamoDB Local. */
async function keys(...args: string[]) {
  const table = ['--table', config.tableName, '--endpoint', config.dynamodbEndpoint as string];
  const { stdout, stderr } = await run('npx', ['tsx', 'scripts/keys.ts', ...args, ...table], {
    cwd: projectRoot,
    env: { ...process.env, AWS_REGION: 'local', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' },
    timeout: 60_000,
  });
  return { stdout, stderr, lines: stdout.trimEnd().split('\n') };
}

describe('key tool (scripts/keys.ts)', () => {
  it('creates a key that authenticates, lists it without the key, and revokes it', { timeout: 120_000 }, async () => {
    // Prepare
    const owner = `tool-${randomUUID()}`;
    // Act: create
    const created = await keys('create', '--owner', owner, '--name', 'ci key');
    const key = created.lines.at(-1) as string;
    const api = keyClient(gateway, key);
    const stored = await api.post('/api/v1/spaces', { name: 'From the tool' });
    // Assess: the key is alone on the last line, and works for its owner
    expect(key).toMatch(/^dsk_[A-Za-z0-9_-]{43}$/);
    expect(stored.status).toBe(201);
    expect((await api.get('/api/v1/spaces')).body.data.map((space: { name: string }) => space.name)).toEqual([
      'From the tool',
    ]);

    // Act: list
    const listed = await keys('list', '--owner', owner);
    // Assess: prefix, label and state, never the key
    expect(listed.stdout).not.toContain(key);
    expect(listed.stderr).not.toContain(key);
    expect(listed.lines).toHaveLength(1);
    const [prefix, createdAt, state, label] = (listed.lines[0] as string).split('\t');
    expect(key.startsWith(prefix as string)).toBe(true);
    expect((prefix as string).length).toBeLessThan(key.length / 2);
    expect(createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(state).toBe('active');
    expect(label).toBe('ci key');

    // Act: revoke
    await keys('revoke', prefix as string);
    const refused = await api.get('/api/v1/spaces');
    const after = await keys('list', '--owner', owner);
    // Assess
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(UNAUTHENTICATED);
    expect(after.lines[0]?.split('\t')[2]).toBe('revoked');
  });
});
