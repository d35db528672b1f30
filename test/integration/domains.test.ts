import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ItemNotFound, NameTaken, PageLoopError } from '#lib/data/errors.ts';
import { countItems } from '#lib/data/listing.ts';
import { pageErrors } from '#lib/domains/api/errors.ts';
import { storeDomainSchema } from '#lib/domains/api/fields.ts';
import { destroyDomain, listDomains, showDomain, storeDomain, updateDomain } from '#lib/domains/data/domains.ts';
import { httpErrorOf } from '#lib/http/data-errors.ts';
import { HttpError } from '#lib/http/errors.ts';
import { validate } from '#lib/http/validate.ts';
import { expectConsistent } from '#test/reliability/helpers.ts';
import { db } from '#test/support/database.ts';
import { listQuery as query, rejection } from '#test/support/fixtures.ts';

const newOwner = () => `owner-${randomUUID()}`;
/** Domain names are unique across owners, so every test uses its own. */
const newName = (label = 'site') => `${label}-${randomUUID().slice(0, 8)}.example`;
const plain = (name: string) => ({ name, indexPage: null, notFoundPage: null });

/** The body of the HttpError `act` throws. */
/** The body the API answers for a data-layer error. */
function httpBody(error: unknown) {
  const answered = httpErrorOf(error, pageErrors);
  if (!(answered instanceof HttpError)) throw new Error('expected an HTTP error');
  return answered.body();
}

describe.concurrent('domains data module', () => {
  it('stores and shows a domain with its pages, allocating ids per owner', async () => {
    // Prepare
    const owner = newOwner();
    const name = newName();
    // Act
    const stored = (await storeDomain(db, owner, { name, indexPage: 'https://a.example/', notFoundPage: null })).result;
    const second = (await storeDomain(db, owner, plain(newName()))).result;
    // Assess
    expect(stored).toMatchObject({ id: 1, name, indexPage: 'https://a.example/', notFoundPage: null });
    expect(second.id).toBe(2);
    expect(await showDomain(db, owner, 1)).toMatchObject({ name, indexPage: 'https://a.example/', notFoundPage: null });
    expect(await countItems(db, owner, 'domain')).toBe(2);
    expect(await countItems(db, owner, 'space')).toBe(0);
  });

  it('stores a domain pending: its name is held for its owner only', async () => {
    // Prepare
    const [alice, bob] = [newOwner(), newOwner()];
    const name = newName();
    const stored = (await storeDomain(db, alice, plain(name))).result;
    // Act
    const takenBySelf = rejection(storeDomain(db, alice, plain(name)));
    const elsewhere = (await storeDomain(db, bob, plain(name))).result;
    // Assess
    expect(stored).toMatchObject({ status: 'pending', verificationToken: expect.stringMatching(/^[\w-]{32}$/) });
    expect(stored).not.toHaveProperty('verifiedAt');
    expect(stored).not.toHaveProperty('lastCheckedAt');
    expect(await takenBySelf).toBeInstanceOf(NameTaken);
    expect(elsewhere).toMatchObject({ name, status: 'pending' });
    expect(elsewhere.verificationToken).not.toBe(stored.verificationToken);
    expect(await countItems(db, alice, 'domain')).toBe(1);
    await expectConsistent([alice, bob], { domainNames: [name] });
  });

  it('never reuses an id after a delete', async () => {
    // Prepare
    const owner = newOwner();
    for (let i = 0; i < 3; i++) (await storeDomain(db, owner, plain(newName()))).result;
    await destroyDomain(db, owner, 3);
    // Act
    const next = (await storeDomain(db, owner, plain(newName()))).result;
    // Assess
    expect(next.id).toBe(4);
    expect(await countItems(db, owner, 'domain')).toBe(3);
  });

  it('updates pages partially: undefined keeps, null clears, a URL sets', async () => {
    // Prepare
    const owner = newOwner();
    const stored = (
      await storeDomain(db, owner, {
        name: newName(),
        indexPage: 'https://index.example/',
        notFoundPage: 'https://missing.example/',
      })
    ).result;
    // Act
    const cleared = (await updateDomain(db, owner, stored.id, { indexPage: null })).result;
    const set = (
      await updateDomain(db, owner, stored.id, {
        indexPage: 'https://new.example/',
        notFoundPage: undefined,
      })
    ).result;
    const unchanged = (await updateDomain(db, owner, stored.id, {})).result;
    // Assess
    expect(cleared).toMatchObject({ name: stored.name, indexPage: null, notFoundPage: 'https://missing.example/' });
    expect(set).toMatchObject({ indexPage: 'https://new.example/', notFoundPage: 'https://missing.example/' });
    expect(unchanged).toMatchObject({ indexPage: 'https://new.example/', updatedAt: set.updatedAt });
    expect(set.createdAt).toBe(stored.createdAt);
  });

  it('refuses a page on the domain itself, naming each looping field, and changes nothing', async () => {
    // Prepare
    const owner = newOwner();
    const stored = (await storeDomain(db, owner, { ...plain(newName()), notFoundPage: 'https://keep.example/' }))
      .result;
    // Act
    const error = await rejection(
      updateDomain(db, owner, stored.id, {
        indexPage: `https://${stored.name.toUpperCase()}/home`,
        notFoundPage: `http://${stored.name}./404`,
      }),
    );
    const single = await rejection(
      updateDomain(db, owner, stored.id, {
        indexPage: 'https://fine.example/',
        notFoundPage: `https://${stored.name}`,
      }),
    );
    // Assess
    expect(error).toBeInstanceOf(PageLoopError);
    expect((error as PageLoopError).attributes).toEqual(['indexPage', 'notFoundPage']);
    expect(single).toBeInstanceOf(PageLoopError);
    expect((single as PageLoopError).attributes).toEqual(['notFoundPage']);
    // Assess: the HTTP layer answers them as the 422 field errors, in the request's field names.
    expect(JSON.stringify(httpBody(error))).toBe(
      '{"message":"The index page must not point to the domain itself.","errors":{' +
        '"index_page":["The index page must not point to the domain itself."],' +
        '"not_found_page":["The not found page must not point to the domain itself."]},"status":422}',
    );
    expect(httpBody(single)).toEqual({
      message: 'The not found page must not point to the domain itself.',
      errors: { not_found_page: ['The not found page must not point to the domain itself.'] },
      status: 422,
    });
    expect(await showDomain(db, owner, stored.id)).toMatchObject({
      indexPage: null,
      notFoundPage: 'https://keep.example/',
    });
  });

  it.each([
    ['index_page', 'https://example.com/', 'The index page must not point to the domain itself.'],
    ['index_page', 'http://EXAMPLE.com:8080/x', 'The index page must not point to the domain itself.'],
    ['not_found_page', 'https://example.com/404', 'The not found page must not point to the domain itself.'],
    ['not_found_page', 'https://example.com./404', 'The not found page must not point to the domain itself.'],
  ])('refuses to store a %s on the domain itself (%s), storing nothing', async (field, url, message) => {
    // Prepare
    const owner = newOwner();
    const body = validate(storeDomainSchema, { name: 'https://Example.com', [field]: url });
    // Act
    const error = await rejection(storeDomain(db, owner, body));
    // Assess
    expect(error).toBeInstanceOf(PageLoopError);
    expect(httpBody(error)).toEqual({ message, errors: { [field]: [message] }, status: 422 });
    expect(await countItems(db, owner, 'domain')).toBe(0);
  });

  it('compares a Unicode domain with its page in the same punycode form', async () => {
    // Prepare
    const body = validate(storeDomainSchema, { name: 'bücher.de', index_page: 'https://BÜCHER.de/' });
    // Act
    const error = await rejection(storeDomain(db, newOwner(), body));
    // Assess
    expect(httpBody(error)).toMatchObject({
      errors: { index_page: ['The index page must not point to the domain itself.'] },
    });
  });

  it('deletes, releasing the name and the count', async () => {
    // Prepare
    const owner = newOwner();
    const stored = (await storeDomain(db, owner, plain(newName()))).result;
    // Act
    await destroyDomain(db, owner, stored.id);
    // Assess
    await expect(showDomain(db, owner, stored.id)).rejects.toBeInstanceOf(ItemNotFound);
    await expect(destroyDomain(db, owner, stored.id)).rejects.toBeInstanceOf(ItemNotFound);
    expect(await countItems(db, owner, 'domain')).toBe(0);
    await expect(storeDomain(db, owner, plain(stored.name))).resolves.toMatchObject({ result: { id: 2 } });
  });

  it('cannot read, change or delete another owner’s domain', async () => {
    // Prepare
    const [owner, intruder] = [newOwner(), newOwner()];
    const stored = (await storeDomain(db, owner, plain(newName()))).result;
    // Act / Assess
    await expect(showDomain(db, intruder, stored.id)).rejects.toBeInstanceOf(ItemNotFound);
    await expect(updateDomain(db, intruder, stored.id, { indexPage: 'https://x.example/' })).rejects.toBeInstanceOf(
      ItemNotFound,
    );
    await expect(updateDomain(db, intruder, stored.id, {})).rejects.toBeInstanceOf(ItemNotFound);
    await expect(destroyDomain(db, intruder, stored.id)).rejects.toBeInstanceOf(ItemNotFound);
    expect(await showDomain(db, owner, stored.id)).toMatchObject({ indexPage: null });
    expect(await listDomains(db, intruder, query())).toEqual({ records: [], total: 0 });
  });
});

describe.concurrent('listing domains', () => {
  const owner = newOwner();
  const suffix = randomUUID().slice(0, 8);
  // Stored in this order: ids 1..4
  const names = [`mango-${suffix}.example`, `apple-${suffix}.example`, `kiwi-${suffix}.example`, `apple-${suffix}.org`];
  const ready = (async () => {
    for (const name of names) (await storeDomain(db, owner, plain(name))).result;
  })();

  it('lists by id and by name in both directions', async () => {
    // Prepare
    await ready;
    // Act
    const idDesc = await listDomains(db, owner, query());
    const idAsc = await listDomains(db, owner, query({ sort: 'asc' }));
    const nameAsc = await listDomains(db, owner, query({ sortBy: 'name', sort: 'asc' }));
    const nameDesc = await listDomains(db, owner, query({ sortBy: 'name', sort: 'desc' }));
    // Assess
    expect(idDesc.records.map((item) => item.id)).toEqual([4, 3, 2, 1]);
    expect(idAsc.records.map((item) => item.id)).toEqual([1, 2, 3, 4]);
    expect(nameAsc.records.map((item) => item.id)).toEqual([2, 4, 3, 1]);
    expect(nameDesc.records.map((item) => item.id)).toEqual([1, 3, 4, 2]);
    expect(idDesc.total).toBe(4);
  });

  it('searches a substring of the name, case-insensitively', async () => {
    // Prepare
    await ready;
    // Act
    const apples = await listDomains(db, owner, query({ search: 'APPLE', sort: 'asc' }));
    const org = await listDomains(db, owner, query({ search: '.org' }));
    // Assess
    expect(apples.records.map((item) => item.id)).toEqual([2, 4]);
    expect(apples.total).toBe(2);
    expect(org.records.map((item) => item.id)).toEqual([4]);
  });
});
