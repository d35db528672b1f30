/**
 * API key tool.
 *   keys create --owner <ownerId> [--name <label>] [--scopes <s,…>] [--expires-in <N>d | --expires-at <date>]
 *                                                    prints the new key alone on the last line
 *   keys list --owner <ownerId> [--json]             prefix, label, scopes, created, expires, last used, state
 *   keys rotate <prefix> [--grace <N>h] [--scopes <fewer>]
 *                                                    a new key (last line); the old one expires after the grace
 *   keys revoke <prefix>
 * Against the stack `npm start` runs, or a deployed table with --table and --region (default AWS credentials).
 */

import { commandLine, helpOption } from '#infra/command-line.ts';
import {
  type ApiKeyRecord,
  ApiKeyStateError,
  createApiKey,
  listApiKeys,
  OWNER_ID_PATTERN,
  revokeApiKey,
  rotateApiKey,
} from '#lib/auth/data/key-admin.ts';
import { expiryFrom, InvalidDurationError, parseGrace } from '#lib/auth/rules/expiry.ts';
import { allScopes, InvalidScopesError, parseScopes } from '#lib/auth/rules/scopes.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import type { Config } from '#lib/platform/config.ts';
import { explain, fail, tableConfig, tableOptions, tableOptionsUsage } from './support/table.ts';

const TABLE = '[--table <name> --region <region>]';
const USAGE = `Usage:
  npm run --silent keys -- create --owner <ownerId> [--name <label>] [--scopes <scope,…>]
                                  [--expires-in <N>d|<N>h | --expires-at <ISO date>] ${TABLE}
  npm run --silent keys -- list --owner <ownerId> [--json] ${TABLE}
  npm run --silent keys -- rotate <prefix> [--grace <N>h] [--scopes <scope,…>]
                                  [--expires-in <N>d | --expires-at <ISO date>] ${TABLE}
  npm run --silent keys -- revoke <prefix> ${TABLE}

Scopes: ${allScopes.join(', ')} (default: all; <collection>:* is both of a collection's).
A key holds exactly the scopes it is given; \`list\` shows what each key holds. Keys made before this release
hold what they did: one made before scopes existed, or made with exactly domains:*,spaces:* (the
default before webhooks), holds the webhooks' scopes too. Such a key made after webhooks came and before this
release cannot be told apart: to drop the webhooks' scopes, rotate it with --scopes domains:*,spaces:* --grace 0s.
A new key is printed alone on the last line, once. A rotated key keeps working for the grace (default 24h).

Webhooks: a key may store or redirect a webhook only to events it could read itself (domain.* needs
domains:read; * every read scope). Deliveries follow the key's rotation line: after \`rotate\` they go on under
the new key (and its scopes, if --scopes narrowed them); once the line's newest key is revoked or expired, the
webhook is disabled at its next event (disabled_reason key_revoked, key_expired) until a key enables it again.

Options:
  --owner <ownerId>        the keys' owner (create, list)
  --name <label>           a label for the new key (create)
  --scopes <scope,…>       what the key may do (create); rotate: some of the old key's (default: all of them)
  --expires-in <N>d|<N>h   lifetime of the new key (create, rotate; also m, s); or --expires-at <ISO date>
  --grace <N>h             how long a rotated key keeps working (rotate; default 24h)
  --json                   the list as JSON (list)
${tableOptionsUsage(27)}
  -h, --help               this help`;

const COLUMNS = ['prefix', 'label', 'scopes', 'created', 'expires', 'last used', 'state'];

/** One tab-separated line per key, under a header line. */
const row = (record: ApiKeyRecord) =>
  [
    record.prefix,
    record.label,
    record.scopes.join(','),
    record.createdAt,
    record.expiresAt ?? 'never',
    record.lastUsedAt ?? 'never',
    record.state,
  ].join('\t');

let config: Config | undefined;

async function main() {
  const parsed = commandLine(USAGE, {
    allowPositionals: true,
    options: {
      ...helpOption,
      owner: { type: 'string' },
      name: { type: 'string' },
      scopes: { type: 'string' },
      'expires-in': { type: 'string' },
      'expires-at': { type: 'string' },
      grace: { type: 'string' },
      json: { type: 'boolean' },
      ...tableOptions,
    },
  });
  if (!parsed) return;
  const { values, positionals } = parsed;
  const [command, argument] = positionals;
  if (!command) fail(USAGE);
  const known = ['create', 'list', 'rotate', 'revoke'];
  if (!known.includes(command)) fail(`Unknown command "${command}".\n${USAGE}`);

  // Every option is checked before the table is touched.
  const owner = () => {
    if (!values.owner) fail(`--owner is required.\n${USAGE}`);
    if (!OWNER_ID_PATTERN.test(values.owner))
      fail('--owner must be 1-64 characters of letters, digits, and _ . @ - (starting with a letter or digit).');
    return values.owner;
  };
  const prefix = () => argument ?? fail(`${command} needs the key's prefix (see \`list\`).\n${USAGE}`);
  const expiry = { expiresIn: values['expires-in'], expiresAt: values['expires-at'] };
  let scopes: ReturnType<typeof parseScopes> | undefined;
  let expiresAt: string | undefined;
  let graceSeconds: number | undefined;
  try {
    if (values.scopes !== undefined) {
      if (command !== 'create' && command !== 'rotate') fail('--scopes is for create and rotate.');
      scopes = parseScopes(values.scopes);
    }
    expiresAt = expiryFrom(expiry);
    if (values.grace !== undefined) {
      if (command !== 'rotate') fail('--grace is only for rotate.');
      graceSeconds = parseGrace(values.grace);
    }
  } catch (error) {
    if (error instanceof InvalidScopesError || error instanceof InvalidDurationError) fail(error.message);
    throw error;
  }
  if (expiresAt !== undefined && command !== 'create' && command !== 'rotate') {
    fail('--expires-in and --expires-at are for create and rotate.');
  }

  config = tableConfig(values);
  const db = createDb(config);
  switch (command) {
    case 'create': {
      const { key, record } = await createApiKey(db, owner(), values.name ?? '', { scopes, expiresAt });
      const expires = record.expiresAt ? `expires ${record.expiresAt}` : 'never expires';
      console.log(`Created key ${record.prefix}… for owner ${record.owner}: ${record.scopes.join(', ')}; ${expires}.`);
      console.log('It is shown only once:');
      console.log(key);
      return;
    }
    case 'list': {
      const records = await listApiKeys(db, owner());
      if (values.json) {
        console.log(JSON.stringify(records, null, 2));
        return;
      }
      if (records.length === 0) {
        console.log('No keys.');
        return;
      }
      console.log(COLUMNS.join('\t'));
      for (const record of records) console.log(row(record));
      return;
    }
    case 'rotate': {
      try {
        const rotated = await rotateApiKey(db, prefix(), {
          ...(graceSeconds === undefined ? {} : { graceSeconds }),
          ...(scopes === undefined ? {} : { scopes }),
          ...(expiresAt === undefined ? {} : { expiresAt }),
        });
        const { previous, record } = rotated;
        const expires = record.expiresAt ? `expires ${record.expiresAt}` : 'never expires';
        console.log(`Key ${previous.prefix} keeps working until ${previous.expiresAt}.`);
        console.log(`New key ${record.prefix}… (${record.scopes.join(', ')}; ${expires}). It is shown only once:`);
        console.log(rotated.key);
      } catch (error) {
        if (error instanceof ApiKeyStateError) fail(error.message);
        throw error;
      }
      return;
    }
    case 'revoke': {
      const revoked = prefix();
      if (!(await revokeApiKey(db, revoked))) fail(`No key with prefix ${revoked}.`);
      // The cache that still holds the key's answer: the local gateway's, or a stage's API Gateway's.
      const deployed = values.table !== undefined && values.endpoint === undefined;
      const period = deployed
        ? "the stage's authorizerCacheTtl in infra/stages.ts"
        : 'AUTH_CACHE_TTL_SECONDS of npm start, 60 s by default';
      console.log(`Revoked ${revoked}. It is refused within the authorizer cache period (${period}).`);
      console.log(
        'Webhooks it directed are disabled at their next event (disabled_reason key_revoked), unless a newer key of its rotation carries them.',
      );
      return;
    }
  }
}

main().catch((error) => {
  console.error(`keys: ${explain(error, config)}`);
  process.exit(1);
});
