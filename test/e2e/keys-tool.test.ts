import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/bundling.ts';
import type { Gateway } from '#infra/local/gateway.ts';
import type { ApiKeyRecord } from '#lib/auth/data/key-admin.ts';
import { routes } from '#lib/routes.ts';
import { config, db } from '#test/support/database.ts';
import { type Client, startTestGateway } from '#test/support/http.ts';
import { putOldShapeKey } from '#test/support/keys.ts';
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

/** Runs the tool and expects it to fail; returns what it printed. */
async function keysFailing(...args: string[]) {
  return keys(...args).then(
    (result) => {
      throw new Error(`expected the key tool to fail: ${result.stdout}`);
    },
    // The tool's message is the last line (npx may print warnings of its own first).
    (error: { code: number; stdout: string; stderr: string }) => ({
      ...error,
      message: error.stderr.trim().split('\n').at(-1) ?? '',
    }),
  );
}

const FOUR = 'domains:read,domains:write,spaces:read,spaces:write';
const ALL = `${FOUR},webhooks:read,webhooks:write`;

/** Every method of every webhook route, on an id (the gateway answers before any handler runs). */
const webhookCalls = () =>
  routes
    .filter((route) => route.collection === 'webhooks')
    .flatMap((route) =>
      route.methods.map((method) => ({
        name: `${method} ${route.path}`,
        send: (api: Client) =>
          api.request(method, route.path.replace('{id}', '1'), method === 'GET' ? {} : { json: {} }),
      })),
    );

/** The list's rows as objects, by the header's column names. */
function rows(lines: string[]): Record<string, string>[] {
  const [header, ...body] = lines.map((line) => line.split('\t'));
  return body.map((cells) => Object.fromEntries((header ?? []).map((name, index) => [name, cells[index] ?? ''])));
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
    // Assess: a header, then prefix, label, scopes, created, expires, last used and state; never the key
    expect(listed.stdout).not.toContain(key);
    expect(listed.stderr).not.toContain(key);
    expect(listed.lines[0]).toBe('prefix\tlabel\tscopes\tcreated\texpires\tlast used\tstate');
    const [row] = rows(listed.lines);
    expect(rows(listed.lines)).toHaveLength(1);
    const prefix = row?.prefix as string;
    expect(key.startsWith(prefix)).toBe(true);
    expect(prefix.length).toBeLessThan(key.length / 2);
    expect(row).toMatchObject({
      label: 'ci key',
      scopes: 'domains:read,domains:write,spaces:read,spaces:write,webhooks:read,webhooks:write',
      expires: 'never',
      state: 'active',
    });
    expect(row?.created).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(row?.['last used']).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    // Act: revoke
    const revoked = await keys('revoke', prefix);
    const refused = await api.get('/api/v1/spaces');
    const after = await keys('list', '--owner', owner);
    // Assess
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(UNAUTHENTICATED);
    expect(rows(after.lines)[0]?.state).toBe('revoked');
    // A DynamoDB other than AWS's (here DynamoDB Local): the local gateway's cache setting is the one named.
    expect(revoked.lines.join('\n')).toContain(
      `Revoked ${prefix}. It is refused within the authorizer cache period (AUTH_CACHE_TTL_SECONDS of npm start, 60 s by default).`,
    );
  });

  it('creates a scoped key that expires, and rotates it', { timeout: 120_000 }, async () => {
    // Prepare
    const owner = `tool-${randomUUID()}`;
    const start = Date.now();
    // Act: create with --scopes and --expires-in
    const created = await keys(
      'create',
      '--owner',
      owner,
      '--name',
      'reader',
      '--scopes',
      'domains:read,spaces:read',
      '--expires-in',
      '30d',
    );
    const key = created.lines.at(-1) as string;
    const api = keyClient(gateway, key);
    const read = await api.get('/api/v1/spaces');
    const write = await api.post('/api/v1/spaces', { name: 'Not allowed' });
    const [row] = rows((await keys('list', '--owner', owner)).lines);
    // Assess
    expect(read.status).toBe(200);
    expect(write.status).toBe(403);
    expect(row).toMatchObject({ label: 'reader', scopes: 'domains:read,spaces:read', state: 'active' });
    const expires = Date.parse(row?.expires ?? '');
    expect(expires - start).toBeGreaterThanOrEqual(30 * 86_400_000 - 1_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(30 * 86_400_000);

    // Act: rotate with a grace
    const rotation = await keys('rotate', row?.prefix as string, '--grace', '2h');
    const next = rotation.lines.at(-1) as string;
    const nextRead = await keyClient(gateway, next).get('/api/v1/domains');
    const nextWrite = await keyClient(gateway, next).post('/api/v1/spaces', { name: 'Still not' });
    const oldRead = await api.get('/api/v1/domains');
    const listed = rows((await keys('list', '--owner', owner)).lines);
    // Assess: the new key alone on the last line, with the same label and scopes; the old one for 2 h more
    expect(next).toMatch(/^dsk_[A-Za-z0-9_-]{43}$/);
    expect(next).not.toBe(key);
    expect([nextRead.status, nextWrite.status, oldRead.status]).toEqual([200, 403, 200]);
    expect(listed).toHaveLength(2);
    const [old, rotated] = listed;
    expect(Date.parse(old?.expires ?? '') - start).toBeGreaterThanOrEqual(7_200_000 - 1_000);
    expect(Date.parse(old?.expires ?? '') - Date.now()).toBeLessThanOrEqual(7_200_000);
    expect(rotated).toMatchObject({ label: 'reader', scopes: 'domains:read,spaces:read', state: 'active' });
    expect(next.startsWith(rotated?.prefix as string)).toBe(true);
  });

  it('refuses an unknown scope, a bad lifetime and an unknown prefix with a clear message, and writes nothing', {
    timeout: 120_000,
  }, async () => {
    // Prepare
    const owner = `tool-${randomUUID()}`;
    // Act
    const scope = await keysFailing('create', '--owner', owner, '--scopes', 'spaces:read,domains:delete');
    const expiresIn = await keysFailing('create', '--owner', owner, '--expires-in', 'soon');
    const past = await keysFailing('create', '--owner', owner, '--expires-at', '2001-01-01');
    const grace = await keysFailing('rotate', 'dsk_whatever', '--grace', '1.5h');
    const unknown = await keysFailing('rotate', 'dsk_nothere1');
    const listed = await keys('list', '--owner', owner);
    // Assess
    expect(scope.message).toBe(
      'Unknown scope "domains:delete". The scopes are: domains:read, domains:write, spaces:read, spaces:write, webhooks:read, webhooks:write.',
    );
    expect(expiresIn.message).toMatch(/--expires-in must be a positive whole number and a unit \(d, h, m or s\)/);
    expect(past.message).toMatch(/--expires-at 2001-01-01 is in the past/);
    expect(grace.message).toMatch(/--grace must be a whole number and a unit/);
    expect(unknown.message).toBe('No key with prefix dsk_nothere1.');
    for (const failure of [scope, expiresIn, past, grace, unknown]) expect(failure.code).toBe(2);
    expect(listed.stdout.trim()).toBe('No keys.');
  });

  it("gives a key made with --scopes 'domains:*,spaces:*' exactly those four: 403 on every webhook route", {
    timeout: 120_000,
  }, async () => {
    // Prepare
    const owner = `tool-${randomUUID()}`;
    // Act
    const created = await keys('create', '--owner', owner, '--scopes', 'domains:*,spaces:*');
    const api = keyClient(gateway, created.lines.at(-1) as string);
    const replies = await Promise.all(webhookCalls().map(async (call) => [call.name, (await call.send(api)).status]));
    const space = await api.post('/api/v1/spaces', { name: 'Still a spaces key' });
    const [row] = rows((await keys('list', '--owner', owner)).lines);
    // Assess
    expect(created.lines.at(-3)).toMatch(
      new RegExp(
        `^Created key dsk_\\S+… for owner ${owner}: domains:read, domains:write, spaces:read, spaces:write; never expires\\.$`,
      ),
    );
    expect(replies).toEqual(webhookCalls().map((call) => [call.name, 403]));
    expect(space.status).toBe(201);
    expect(row?.scopes).toBe(FOUR);
  });

  it('reads keys stored in the old shapes as before: no scopes, or the four old ones without the marker, hold webhooks too', {
    timeout: 120_000,
  }, async () => {
    // Prepare: as the key tool wrote them before scopes, and from scopes until the catalogue's marker.
    const owner = `tool-${randomUUID()}`;
    const unscoped = await putOldShapeKey(db, owner, 'before scopes');
    const four = await putOldShapeKey(db, owner, 'four, unmarked', { scopes: FOUR.split(',') });
    // Act
    const replies = [];
    for (const { key } of [unscoped, four]) {
      const api = keyClient(gateway, key);
      replies.push((await api.get('/api/v1/webhooks')).status, (await api.post('/api/v1/webhooks', {})).status);
    }
    const listed = rows((await keys('list', '--owner', owner)).lines);
    // Assess: served (200), and a store reaches its validation (422), not the gateway's 403.
    expect(replies).toEqual([200, 422, 200, 422]);
    expect(listed.map((row) => [row.label, row.scopes])).toEqual([
      ['before scopes', ALL],
      ['four, unmarked', ALL],
    ]);
  });

  it('rotates a key into one that means the same, marked; --scopes narrows it, never widens it', {
    timeout: 180_000,
  }, async () => {
    // Prepare: a key made today with the four scopes (marked), one of the old shape with them (unmarked).
    const owner = `tool-${randomUUID()}`;
    await keys('create', '--owner', owner, '--name', 'marked', '--scopes', 'domains:*,spaces:*');
    const unmarked = await putOldShapeKey(db, owner, 'unmarked', { scopes: FOUR.split(',') });
    const marked = rows((await keys('list', '--owner', owner)).lines).find((row) => row.label === 'marked');
    // Act
    const fromMarked = await keys('rotate', marked?.prefix as string, '--grace', '0s');
    const fromUnmarked = await keys('rotate', unmarked.prefix, '--grace', '0s');
    const markedKey = keyClient(gateway, fromMarked.lines.at(-1) as string);
    const unmarkedKey = keyClient(gateway, fromUnmarked.lines.at(-1) as string);
    const replies = [
      (await markedKey.get('/api/v1/webhooks')).status,
      (await unmarkedKey.get('/api/v1/webhooks')).status,
    ];
    const listed = JSON.parse((await keys('list', '--owner', owner, '--json')).stdout) as ApiKeyRecord[];
    const successor = listed.find((record) => record.label === 'unmarked' && record.state === 'active');
    const narrowed = await keys(
      'rotate',
      successor?.prefix as string,
      '--grace',
      '0s',
      '--scopes',
      'domains:*,spaces:*',
    );
    const widened = await keysFailing(
      'rotate',
      narrowed.lines.at(-1)?.slice(0, 12) as string,
      '--scopes',
      'webhooks:read',
    );
    // Assess: the rotated keys hold what the old ones held, stored under today's catalogue, in the old one's line.
    expect(fromMarked.lines.at(-2)).toContain(`(${FOUR.replaceAll(',', ', ')}; never expires)`);
    expect(fromUnmarked.lines.at(-2)).toContain(`(${ALL.replaceAll(',', ', ')}; never expires)`);
    expect(replies).toEqual([403, 200]);
    const active = listed.filter((record) => record.state === 'active');
    expect(active.map((record) => [record.label, record.scopes.join(','), record.scopeCatalogue])).toEqual([
      ['marked', FOUR, 2],
      ['unmarked', ALL, 2],
    ]);
    expect(listed.find((record) => record.prefix === unmarked.prefix)?.scopeCatalogue).toBeNull();
    expect(successor?.lineage).toBe(unmarked.prefix);
    expect(narrowed.lines.at(-2)).toContain(`(${FOUR.replaceAll(',', ', ')}; never expires)`);
    expect((await keyClient(gateway, narrowed.lines.at(-1) as string).get('/api/v1/webhooks')).status).toBe(403);
    expect(widened.code).toBe(2);
    expect(widened.message).toMatch(
      /a rotated key may hold fewer scopes, not webhooks:read \(create a new key for those\)\.$/,
    );
  });
});
