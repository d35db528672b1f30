import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ItemNotFound, NameTaken } from '#lib/data/errors.ts';
import { countItems } from '#lib/data/listing.ts';
import { destroySpace, listSpaces, showSpace, storeSpace, updateSpace } from '#lib/spaces/data/spaces.ts';
import { db } from '#test/support/database.ts';
import { listQuery as query } from '#test/support/fixtures.ts';

const newOwner = () => `owner-${randomUUID()}`;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function storeAll(owner: string, names: string[]) {
  const stored = [];
  for (const name of names) stored.push((await storeSpace(db, owner, { name, color: 1 })).result);
  return stored;
}

describe.concurrent('spaces data module', () => {
  it('stores, shows, counts and allocates ids 1, 2, 3 per owner', async () => {
    // Prepare
    const owner = newOwner();
    const other = newOwner();
    // Act
    const [a, b, c] = await storeAll(owner, ['Alpha', 'Beta', 'Gamma']);
    const first = (await storeSpace(db, other, { name: 'Alpha', color: 6 })).result;
    // Assess
    expect([a?.id, b?.id, c?.id]).toEqual([1, 2, 3]);
    expect(first.id).toBe(1);
    expect(await showSpace(db, owner, 2)).toMatchObject({ id: 2, name: 'Beta', color: 1 });
    expect(a?.createdAt).toMatch(ISO_UTC);
    expect(a?.updatedAt).toBe(a?.createdAt);
    expect(await countItems(db, owner, 'space')).toBe(3);
    expect(await countItems(db, other, 'space')).toBe(1);
    expect(await countItems(db, newOwner(), 'space')).toBe(0);
  });

  it('never reuses an id after a delete', async () => {
    // Prepare
    const owner = newOwner();
    await storeAll(owner, ['One', 'Two', 'Three']);
    await destroySpace(db, owner, 3);
    await destroySpace(db, owner, 1);
    // Act
    const next = (await storeSpace(db, owner, { name: 'Four', color: 2 })).result;
    // Assess
    expect(next.id).toBe(4);
    expect(await countItems(db, owner, 'space')).toBe(2);
  });

  it('leaves a gap, not a reused id, when a store fails', async () => {
    // Prepare
    const owner = newOwner();
    await storeSpace(db, owner, { name: 'Taken', color: 1 });
    await expect(storeSpace(db, owner, { name: 'TAKEN', color: 1 })).rejects.toBeInstanceOf(NameTaken);
    // Act
    const next = (await storeSpace(db, owner, { name: 'Free', color: 1 })).result;
    // Assess
    expect(next.id).toBe(3);
    expect(await countItems(db, owner, 'space')).toBe(2);
  });

  it('keeps names unique per owner, ignoring case, but not across owners', async () => {
    // Prepare
    const owner = newOwner();
    await storeSpace(db, owner, { name: 'Marketing', color: 1 });
    // Act / Assess
    await expect(storeSpace(db, owner, { name: 'marketing', color: 1 })).rejects.toBeInstanceOf(NameTaken);
    await expect(storeSpace(db, owner, { name: 'MARKETING', color: 1 })).rejects.toBeInstanceOf(NameTaken);
    await expect(storeSpace(db, owner, { name: 'Cafe\u0301', color: 1 })).resolves.toMatchObject({
      result: {
        name: 'Cafe\u0301',
      },
    });
    await expect(storeSpace(db, owner, { name: 'CAFÉ', color: 1 })).rejects.toBeInstanceOf(NameTaken);
    await expect(storeSpace(db, newOwner(), { name: 'marketing', color: 1 })).resolves.toMatchObject({
      result: { id: 1 },
    });
  });

  it('updates the color only, leaving the name', async () => {
    // Prepare
    const owner = newOwner();
    const stored = (await storeSpace(db, owner, { name: 'Design', color: 1 })).result;
    // Act
    const updated = (await updateSpace(db, owner, stored.id, { color: 5 })).result;
    // Assess
    expect(updated).toMatchObject({ id: stored.id, name: 'Design', color: 5, createdAt: stored.createdAt });
    expect(updated.updatedAt >= stored.updatedAt).toBe(true);
    expect(await showSpace(db, owner, stored.id)).toMatchObject({ name: 'Design', color: 5 });
  });

  it('returns the item unchanged when nothing is given', async () => {
    // Prepare
    const owner = newOwner();
    const stored = (await storeSpace(db, owner, { name: 'Still', color: 4 })).result;
    // Act
    const updated = (await updateSpace(db, owner, stored.id, {})).result;
    // Assess
    expect(updated).toMatchObject({ name: 'Still', color: 4, updatedAt: stored.updatedAt });
  });

  it('renames to its own name in another case', async () => {
    // Prepare
    const owner = newOwner();
    const stored = (await storeSpace(db, owner, { name: 'sales', color: 1 })).result;
    // Act
    const updated = (await updateSpace(db, owner, stored.id, { name: 'SALES', color: 2 })).result;
    // Assess
    expect(updated).toMatchObject({ name: 'SALES', color: 2 });
    expect(await showSpace(db, owner, stored.id)).toMatchObject({ name: 'SALES', color: 2 });
    await expect(storeSpace(db, owner, { name: 'Sales', color: 1 })).rejects.toBeInstanceOf(NameTaken);
  });

  it('renames and releases the old name, refusing a name another space holds', async () => {
    // Prepare
    const owner = newOwner();
    const [first, second] = await storeAll(owner, ['Old', 'Other']);
    // Act
    const renamed = (await updateSpace(db, owner, first?.id ?? 0, { name: 'New' })).result;
    const clash = updateSpace(db, owner, first?.id ?? 0, { name: 'OTHER', color: 3 });
    // Assess
    expect(renamed).toMatchObject({ name: 'New', color: 1 });
    await expect(clash).rejects.toBeInstanceOf(NameTaken);
    expect(await showSpace(db, owner, first?.id ?? 0)).toMatchObject({ name: 'New', color: 1 });
    await expect(storeSpace(db, owner, { name: 'new', color: 1 })).rejects.toBeInstanceOf(NameTaken);
    await expect(storeSpace(db, owner, { name: 'old', color: 1 })).resolves.toMatchObject({ result: { name: 'old' } });
    expect(await showSpace(db, owner, second?.id ?? 0)).toMatchObject({ name: 'Other' });
  });

  it('lists a renamed space under its new name in name order', async () => {
    // Prepare
    const owner = newOwner();
    const [a] = await storeAll(owner, ['aaa', 'mmm']);
    await updateSpace(db, owner, a?.id ?? 0, { name: 'zzz' });
    // Act
    const list = await listSpaces(db, owner, query({ sortBy: 'name', sort: 'asc' }));
    // Assess
    expect(list.records.map((item) => item.name)).toEqual(['mmm', 'zzz']);
  });

  it('deletes, releasing the name and decrementing the count', async () => {
    // Prepare
    const owner = newOwner();
    const stored = (await storeSpace(db, owner, { name: 'Temp', color: 1 })).result;
    // Act
    await destroySpace(db, owner, stored.id);
    // Assess
    await expect(showSpace(db, owner, stored.id)).rejects.toBeInstanceOf(ItemNotFound);
    await expect(destroySpace(db, owner, stored.id)).rejects.toBeInstanceOf(ItemNotFound);
    expect(await countItems(db, owner, 'space')).toBe(0);
    await expect(storeSpace(db, owner, { name: 'TEMP', color: 1 })).resolves.toMatchObject({ result: { id: 2 } });
  });

  it('cannot read, change or delete another owner’s space', async () => {
    // Prepare
    const owner = newOwner();
    const intruder = newOwner();
    await storeSpace(db, intruder, { name: 'Mine', color: 1 });
    const stored = (await storeSpace(db, owner, { name: 'Private', color: 3 })).result;
    // Act / Assess
    await expect(showSpace(db, intruder, stored.id + 1)).rejects.toBeInstanceOf(ItemNotFound);
    await expect(updateSpace(db, intruder, stored.id + 1, { color: 1 })).rejects.toBeInstanceOf(ItemNotFound);
    await expect(updateSpace(db, intruder, stored.id + 1, { name: 'Hijack' })).rejects.toBeInstanceOf(ItemNotFound);
    await expect(destroySpace(db, intruder, stored.id + 1)).rejects.toBeInstanceOf(ItemNotFound);
    expect(await showSpace(db, owner, stored.id)).toMatchObject({ name: 'Private', color: 3 });
    expect((await listSpaces(db, intruder, query())).records.map((item) => item.name)).toEqual(['Mine']);
  });

  it('answers not found for an id that was never stored', async () => {
    // Prepare
    const owner = newOwner();
    // Act / Assess
    await expect(showSpace(db, owner, 1)).rejects.toBeInstanceOf(ItemNotFound);
    await expect(updateSpace(db, owner, 1, { color: 2 })).rejects.toBeInstanceOf(ItemNotFound);
    await expect(updateSpace(db, owner, 1, { name: 'x' })).rejects.toBeInstanceOf(ItemNotFound);
    await expect(destroySpace(db, owner, 1)).rejects.toBeInstanceOf(ItemNotFound);
    expect(await countItems(db, owner, 'space')).toBe(0);
  });
});

describe.concurrent('listing spaces', () => {
  const owner = newOwner();
  // Stored in this order: ids 1..7
  const names = ['delta', 'Alpha', 'charlie', 'Bravo', 'echo', 'alpha team', 'Alphabet'];
  const byName = ['Alpha', 'alpha team', 'Alphabet', 'Bravo', 'charlie', 'delta', 'echo'];
  const ready = storeAll(owner, names);

  it('lists by id, newest first by default, and oldest first', async () => {
    // Prepare
    await ready;
    // Act
    const desc = await listSpaces(db, owner, query());
    const asc = await listSpaces(db, owner, query({ sort: 'asc' }));
    // Assess
    expect(desc.records.map((item) => item.id)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(asc.records.map((item) => item.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(desc.total).toBe(7);
  });

  it('lists by name ignoring case, in both directions', async () => {
    // Prepare
    await ready;
    // Act
    const asc = await listSpaces(db, owner, query({ sortBy: 'name', sort: 'asc' }));
    const desc = await listSpaces(db, owner, query({ sortBy: 'name', sort: 'desc' }));
    // Assess
    expect(asc.records.map((item) => item.name)).toEqual(byName);
    expect(desc.records.map((item) => item.name)).toEqual([...byName].reverse());
  });

  it('pages by offset and from a position', async () => {
    // Prepare
    await ready;
    // Act
    const second = await listSpaces(db, owner, query({ perPage: 3, page: 2, sortBy: 'name', sort: 'asc' }));
    const last = await listSpaces(db, owner, query({ perPage: 3, page: 3, sortBy: 'name', sort: 'asc' }));
    const beyond = await listSpaces(db, owner, query({ perPage: 3, page: 4 }));
    const after = await listSpaces(db, owner, query({ perPage: 3, page: 2, sort: 'asc', after: { id: 3, fold: '' } }));
    const afterName = await listSpaces(
      db,
      owner,
      query({ perPage: 3, page: 2, sortBy: 'name', sort: 'asc', after: { id: 6, fold: 'alpha team' } }),
    );
    // Assess
    expect(second.records.map((item) => item.name)).toEqual(byName.slice(3, 6));
    expect(last.records.map((item) => item.name)).toEqual(byName.slice(6));
    expect(beyond).toEqual({ records: [], total: 7 });
    expect(after.records.map((item) => item.id)).toEqual([4, 5, 6]);
    expect(afterName.records.map((item) => item.name)).toEqual(['Alphabet', 'Bravo', 'charlie']);
    // Where each page ends, for its cursor: the last record's id and folded name.
    const lastOfSecond = second.records.at(-1);
    expect(second.end).toEqual({ id: lastOfSecond?.id, fold: lastOfSecond?.name.toLowerCase() });
    expect(beyond.end).toBeUndefined();
  });

  it('returns records: no storage attribute in what is read, listed or written', async () => {
    // Prepare
    const alone = newOwner();
    const storage = ['pk', 'sk', 'lsi1sk', 'kind', 'fold', 'gsi1pk', 'gsi1sk'];
    // Act
    const { result: stored } = await storeSpace(db, alone, { name: 'Records only', color: 2 });
    const shown = await showSpace(db, alone, stored.id);
    const listed = await listSpaces(db, alone, query({ perPage: 100 }));
    // Assess
    for (const record of [stored, shown, ...listed.records]) {
      expect(Object.keys(record).filter((name) => storage.includes(name))).toEqual([]);
    }
    expect(Object.keys(shown).sort()).toEqual(['color', 'createdAt', 'id', 'name', 'updatedAt', 'version']);
    expect(listed.records).toEqual([shown]);
  });

  it('searches a case-insensitive substring of the name, counting only matches', async () => {
    // Prepare
    await ready;
    // Act
    const alpha = await listSpaces(db, owner, query({ search: 'ALPHA', sortBy: 'name', sort: 'asc' }));
    const paged = await listSpaces(db, owner, query({ search: 'alpha', perPage: 2, page: 2 }));
    const middle = await listSpaces(db, owner, query({ search: 'rav' }));
    const none = await listSpaces(db, owner, query({ search: 'zulu' }));
    // Assess
    expect(alpha.records.map((item) => item.name)).toEqual(['Alpha', 'alpha team', 'Alphabet']);
    expect(alpha.total).toBe(3);
    expect(paged.records.map((item) => item.id)).toEqual([2]);
    expect(paged.total).toBe(3);
    expect(middle.records.map((item) => item.name)).toEqual(['Bravo']);
    expect(none).toEqual({ records: [], total: 0 });
  });

  it('lists nothing for an owner without spaces', async () => {
    // Act / Assess
    expect(await listSpaces(db, newOwner(), query())).toEqual({ records: [], total: 0 });
    expect(await listSpaces(db, newOwner(), query({ sortBy: 'name', page: 3 }))).toEqual({ records: [], total: 0 });
  });
});
