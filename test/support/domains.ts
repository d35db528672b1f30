/**
 * Domain verification in tests: a gateway configuration whose verify function asks the test DNS server (set
 * through `DNS_RESOLVER`, as `npm start` is), publishing a domain's record there, and domains written in the
 * shape stored before verification existed.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/data/dynamodb.ts';
import { counterKey, domainNameGuardKey, foldName, itemKey, nameSortKey, sequenceKey } from '#lib/data/keys.ts';
import { type Config, loadConfig } from '#lib/platform/config.ts';
import { arrangeTransaction } from './arrange.ts';
import { config } from './database.ts';
import type { DnsTestServer } from './dns-server.ts';

/** The test configuration, with the DNS settings as the environment would give them. */
export function configWithDns(dns: DnsTestServer, settings: { DNS_TIMEOUT_MS?: string } = {}): Config {
  const { dnsResolver, dnsTimeoutMs } = loadConfig({
    TABLE_NAME: config.tableName,
    DNS_RESOLVER: dns.address,
    ...settings,
  });
  return { ...config, dnsResolver, dnsTimeoutMs };
}

/** A domain as the API shows it: enough to publish its record. */
type Shown = { verification: { name: string; value: string } | null };

/** Publishes the TXT records of these domains (which may share a verification name), each with its token. */
export function publish(dns: DnsTestServer, ...domains: Shown[]): void {
  const byName = new Map<string, string[]>();
  for (const { verification } of domains) {
    if (!verification) throw new Error('This domain has no verification record');
    byName.set(verification.name, [...(byName.get(verification.name) ?? []), verification.value]);
  }
  for (const [name, values] of byName) dns.setTxt(name, values);
}

/**
 * Stores a domain exactly as the code before verification did: an item without status or token, its global
 * name guard (no guard in the owner's partition) and the counter, in one transaction. Returns its id.
 */
export async function storeOldShapeDomain(db: Db, owner: string, name: string): Promise<number> {
  const { Attributes } = await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: sequenceKey(owner, 'domain'),
      UpdateExpression: 'ADD #last :one',
      ExpressionAttributeNames: { '#last': 'last' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const id = Attributes?.last as number;
  const now = new Date().toISOString();
  await arrangeTransaction(db, [
    {
      Put: {
        TableName: db.tableName,
        Item: {
          ...itemKey(owner, 'domain', id),
          lsi1sk: nameSortKey('domain', foldName(name), id),
          kind: 'domain',
          id,
          name,
          fold: foldName(name),
          indexPage: null,
          notFoundPage: null,
          createdAt: now,
          updatedAt: now,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: db.tableName,
        Item: { ...domainNameGuardKey(name), kind: 'domain-name', owner, id },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Update: {
        TableName: db.tableName,
        Key: counterKey(owner, 'domain'),
        UpdateExpression: 'ADD #total :one',
        ExpressionAttributeNames: { '#total': 'total' },
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
  ]);
  return id;
}
