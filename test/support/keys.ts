/** API keys as tests need them: in the shapes written before scopes and before their marker, and at a given moment. */
import { displayPrefix, generateApiKey, hashApiKey } from '#lib/auth/rules/api-key.ts';
import type { RequestKey } from '#lib/auth/rules/request-key.ts';
import { allScopes } from '#lib/auth/rules/scopes.ts';
import type { Db } from '#lib/data/dynamodb.ts';
import { apiKeyKey, apiKeyPrefixKey, ownerApiKeyKey } from '#lib/data/keys.ts';
import { arrangeTransaction } from './arrange.ts';

/**
 * A key written exactly as the key tool wrote it before scopes, expiry and last use existed: three items
 * (hash, prefix, owner listing) with owner, label, prefix, createdAt and revoked, and nothing else. With
 * `scopes`: as it wrote a key from scopes until the scope catalogue's marker (`scopeCatalogue`), with its list
 * and no marker.
 */
export async function putOldShapeKey(
  db: Db,
  owner: string,
  label = 'old shape',
  { scopes }: { scopes?: readonly string[] } = {},
): Promise<{ key: string; prefix: string }> {
  const key = generateApiKey();
  const hash = hashApiKey(key);
  const record = {
    prefix: displayPrefix(key),
    owner,
    label,
    createdAt: new Date().toISOString(),
    revoked: false,
    ...(scopes ? { scopes: [...scopes] } : {}),
  };
  const put = (Item: Record<string, unknown>) => ({ Put: { TableName: db.tableName, Item } });
  await arrangeTransaction(db, [
    put({ ...apiKeyKey(hash), kind: 'api-key', ...record }),
    put({ ...apiKeyPrefixKey(record.prefix), kind: 'api-key-prefix', hash, ...record }),
    put({ ...ownerApiKeyKey(owner, record.prefix), kind: 'owner-api-key', hash, ...record }),
  ]);
  return { key, prefix: record.prefix };
}

/** A moment `seconds` from now (negative: in the past). */
export const secondsFromNow = (seconds: number) => new Date(Date.now() + seconds * 1000);

/**
 * The key of a request as an authorizer answer without a rotation line gives it (one made before lines were
 * passed): every scope, no line. A webhook it stores has the old shape: no recorded key.
 */
export const UNRECORDED_KEY: RequestKey = { lineage: null, scopes: allScopes };
