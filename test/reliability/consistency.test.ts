/**
 * The consistency checker itself: clean data passes, and each kind of corruption is reported. Without
 * this, the concurrency and fault suites could pass with a checker that never finds anything.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { guardItem } from '#lib/data/collection.ts';
import { listEvents } from '#lib/data/events.ts';
import {
  counterKey,
  domainNameGuardKey,
  eventKey,
  eventSequenceKey,
  itemKey,
  nameSortKey,
  ownerDomainNameGuardKey,
  sequenceKey,
  spaceNameGuardKey,
} from '#lib/data/keys.ts';
import { createDnsResolver } from '#lib/dns/resolver.ts';
import { storeDomain, verifyDomain } from '#lib/domains/data/domains.ts';
import { recordsLookup } from '#lib/domains/lookups.ts';
import { verificationName } from '#lib/domains/rules/verification.ts';
import { destroySpace, storeSpace, updateSpace } from '#lib/spaces/data/spaces.ts';
import { type CheckOptions, checkConsistency, type ViolationRule } from '#test/support/consistency.ts';
import { db } from '#test/support/database.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { storeOldShapeDomain } from '#test/support/domains.ts';

let dns: DnsTestServer;
let owner: string;
/** Names of the owner's active domain, pending domain and domain stored before verification existed. */
let domainName: string;
let pendingName: string;
let oldName: string;
let pendingId: number;

beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(() => dns?.close());

beforeEach(async () => {
  // Prepare: an owner with two spaces and three domains (active, pending, old shape), through the data module.
  owner = `owner-${randomUUID()}`;
  [domainName, pendingName, oldName] = ['checked', 'pending', 'old'].map(
    (label) => `${label}-${randomUUID().slice(0, 8)}.example.com`,
  ) as [string, string, string];
  await storeSpace(db, owner, { name: 'Alpha', color: 1 });
  await storeSpace(db, owner, { name: 'Beta', color: 2 });
  const active = (await storeDomain(db, owner, { name: domainName, indexPage: null, notFoundPage: null })).result;
  dns.setTxt(verificationName(domainName), [active.verificationToken ?? '']);
  const lookupRecords = recordsLookup(createDnsResolver({ servers: [dns.address] }), 'edge.test');
  await verifyDomain(db, lookupRecords, owner, active.id);
  pendingId = (await storeDomain(db, owner, { name: pendingName, indexPage: null, notFoundPage: null })).result.id;
  await storeOldShapeDomain(db, owner, oldName);
});

const put = (Item: Record<string, unknown>) => db.client.send(new PutCommand({ TableName: db.tableName, Item }));
const remove = (Key: Record<string, string>) => db.client.send(new DeleteCommand({ TableName: db.tableName, Key }));
const set = (Key: Record<string, string>, attribute: string, value: unknown) =>
  db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key,
      UpdateExpression: 'SET #a = :v',
      ExpressionAttributeNames: { '#a': attribute },
      ExpressionAttributeValues: { ':v': value },
    }),
  );

async function rules(options: CheckOptions = {}): Promise<ViolationRule[]> {
  const report = await checkConsistency(db, owner, { domainNames: [domainName, pendingName, oldName], ...options });
  return report.violations.map((violation) => violation.rule).sort();
}

describe('checkConsistency', () => {
  it('finds nothing wrong with data written by the data module', async () => {
    // Act
    const report = await checkConsistency(db, owner, { domainNames: [domainName, pendingName, oldName], maxItems: 3 });
    // Assess
    expect(report.violations).toEqual([]);
    expect(report.items).toEqual({ space: 2, domain: 3, webhook: 0 });
  });

  it('reports a space without its name guard', async () => {
    // Act
    await remove(spaceNameGuardKey(owner, 'alpha'));
    // Assess
    expect(await rules()).toEqual(['item-without-guard']);
  });

  it.each([
    ['an active domain', () => domainName],
    ['a domain stored before verification existed', () => oldName],
  ])('reports %s without its global name guard', async (_, name) => {
    // Act
    await remove(domainNameGuardKey(name()));
    // Assess
    expect(await rules()).toEqual(['item-without-guard']);
  });

  it.each([
    ['an active domain', () => domainName],
    ['a pending domain', () => pendingName],
  ])('reports %s without its name guard in the owner partition', async (_, name) => {
    // Act
    await remove(ownerDomainNameGuardKey(owner, name()));
    // Assess
    expect(await rules()).toEqual(['item-without-guard']);
  });

  it('reports a pending domain that holds its name globally', async () => {
    // Act
    await put(guardItem(domainNameGuardKey(pendingName), owner, 'domain', pendingId));
    // Assess
    expect(await rules()).toEqual(['pending-holds-name']);
  });

  it('reports a name active under two owners', async () => {
    // Prepare: another owner's active domain of the same name, written without the guard transaction.
    const other = `owner-${randomUUID()}`;
    await put({
      ...itemKey(other, 'domain', 1),
      lsi1sk: nameSortKey('domain', domainName, 1),
      ...{ kind: 'domain', id: 1, name: domainName, fold: domainName, status: 'active', verificationToken: 't' },
    });
    // Act
    await put(guardItem(domainNameGuardKey(domainName), other, 'domain', 1));
    // Assess
    expect(await rules()).toEqual(['name-active-twice']);
  });

  it('reports a domain name guard in the partition left behind by a lost delete', async () => {
    // Act
    await put(guardItem(ownerDomainNameGuardKey(owner, 'gone.example.com'), owner, 'domain', 9));
    // Assess
    expect(await rules()).toEqual(['guard-without-item']);
  });

  it('reports a domain in an unknown status', async () => {
    // Act
    await set(itemKey(owner, 'domain', 1), 'status', 'verified');
    // Assess: changed behind the feed's back too (its state is not its last event's).
    expect(await rules()).toEqual(['item-without-event', 'malformed-item']);
  });

  it('reports a pending domain without a verification token', async () => {
    // Act
    await set(itemKey(owner, 'domain', pendingId), 'verificationToken', '');
    // Assess: changed behind the feed's back too (its state is not its last event's).
    expect(await rules()).toEqual(['item-without-event', 'malformed-item']);
  });

  it('reports a space name guard left behind by a lost delete', async () => {
    // Act
    await put({ ...guardItem(spaceNameGuardKey(owner, 'gamma'), owner, 'space', 9), kind: 'space-name' });
    // Assess
    expect(await rules()).toEqual(['guard-without-item']);
  });

  it('reports a domain guard naming this owner without a live domain, when its name is given', async () => {
    // Prepare
    const orphan = `orphan-${randomUUID().slice(0, 8)}.example.com`;
    // Act
    await put(guardItem(domainNameGuardKey(orphan), owner, 'domain', 7));
    // Assess
    expect(await rules()).toEqual([]);
    expect(await rules({ domainNames: [domainName, orphan] })).toEqual(['guard-without-item']);
  });

  it('reports a guard that points to another id or another owner', async () => {
    // Act
    await set(spaceNameGuardKey(owner, 'beta'), 'id', 1);
    await set(domainNameGuardKey(domainName), 'owner', 'someone-else');
    // Assess: beta's guard names space 1 (alpha), which holds another name, so it is also an orphan.
    expect(await rules()).toEqual(['guard-mismatch', 'guard-mismatch', 'guard-without-item']);
  });

  it('reports two spaces of one owner sharing a name', async () => {
    // Act: a third space named like the first, written without its guard transaction.
    await put({
      ...itemKey(owner, 'space', 3),
      lsi1sk: nameSortKey('space', 'alpha', 3),
      ...{ kind: 'space', id: 3, name: 'ALPHA', fold: 'alpha', color: 1 },
    });
    await set(counterKey(owner, 'space'), 'total', 3);
    await set(sequenceKey(owner, 'space'), 'last', 3);
    // Assess
    expect(await rules()).toEqual(['duplicate-name', 'guard-mismatch']);
  });

  it('reports a counter that differs from the number of items', async () => {
    // Act
    await set(counterKey(owner, 'space'), 'total', 3);
    await set(counterKey(owner, 'domain'), 'total', 0);
    // Assess
    expect(await rules()).toEqual(['count-mismatch', 'count-mismatch']);
  });

  it('reports an id above its sequence (a future store would collide)', async () => {
    // Act
    await set(sequenceKey(owner, 'space'), 'last', 1);
    // Assess
    expect(await rules()).toEqual(['id-above-sequence']);
  });

  it('reports an item whose keys disagree with its name', async () => {
    // Act
    await set(itemKey(owner, 'space', 1), 'lsi1sk', 'SPACE#zeta\u0001000000000001');
    // Assess
    expect(await rules()).toEqual(['malformed-item']);
  });

  it('reports more items than the quota', async () => {
    // Assess
    expect(await rules({ maxItems: 2 })).toEqual(['quota-exceeded']);
  });
});

describe('checkConsistency of the change feed', () => {
  /**
   * The events of the owner, oldest first (five: two spaces created, a domain created and verified, a pending
   * domain created; the domain stored before events existed has none).
   */
  async function events() {
    return (await listEvents(db, owner, { after: { epoch: undefined, id: 0, since: 0 }, perPage: 100, types: [] }))
      .events;
  }
  const eventAt = async (index: number) => eventKey(owner, Number((await events())[index]?.id));

  it('finds nothing wrong after updates and deletes through the data module', async () => {
    // Act
    await updateSpace(db, owner, 1, { color: 4 });
    await updateSpace(db, owner, 1, { name: 'Alpha Two' });
    await destroySpace(db, owner, 2);
    // Assess
    expect(await rules()).toEqual([]);
    expect((await events()).map((event) => event.type)).toEqual([
      'space.created',
      'space.created',
      'domain.created',
      'domain.verified',
      'domain.created',
      'space.updated',
      'space.updated',
      'space.deleted',
    ]);
  });

  it('reports an event above the feed head', async () => {
    // Act: the head one event short of the last.
    const [, , , fourth] = await events();
    await set(eventSequenceKey(owner), 'head', Number(fourth?.id));
    // Assess
    expect(await rules()).toEqual(['event-above-sequence']);
  });

  it('reports an id missing in the gapless range: a head beyond the last event', async () => {
    // Act
    const last = (await events()).at(-1);
    await set(eventSequenceKey(owner), 'head', Number(last?.id) + 1);
    // Assess
    expect(await rules()).toEqual(['feed-gap']);
  });

  it('reports a lost event: the item changed without one', async () => {
    // Act: an update whose event is gone (the item's version moved on, the resource's last event did not).
    await updateSpace(db, owner, 1, { color: 6 });
    await remove((await eventAt(5)) as { pk: string; sk: string });
    // Assess: the feed has a hole where it was, too.
    expect(await rules()).toEqual(['feed-gap', 'item-without-event']);
  });

  it('reports a change recorded twice or skipped in a resource’s versions', async () => {
    // Act: two updates, then the first one's event is gone: the versions jump from 1 to 3.
    await updateSpace(db, owner, 1, { color: 5 });
    await updateSpace(db, owner, 1, { color: 6 });
    await remove((await eventAt(5)) as { pk: string; sk: string });
    // Assess: the feed has a hole where it was, too.
    expect(await rules()).toEqual(['feed-gap', 'version-gap']);
  });

  it('reports an item changed behind the feed’s back (its state is not its last event’s)', async () => {
    // Act
    await set(itemKey(owner, 'space', 1), 'color', 6);
    // Assess
    expect(await rules()).toEqual(['item-without-event']);
  });

  it('reports an item gone without its delete event, and a malformed event', async () => {
    // Act
    await remove(itemKey(owner, 'space', 2));
    await set(counterKey(owner, 'space'), 'total', 1);
    await remove(spaceNameGuardKey(owner, 'beta'));
    // The active domain's last event (its verification): its history now ends before its current version.
    await set(await eventAt(3), 'type', 'domain.vanished');
    // Assess
    expect(await rules()).toEqual(['event-without-item', 'item-without-event', 'malformed-event']);
  });
});
