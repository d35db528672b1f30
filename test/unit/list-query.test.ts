import { describe, expect, it } from 'vitest';
import { parseListQuery } from '#lib/schemas/list.ts';

const defaults = {
  search: '',
  search_by: 'name',
  sort_by: 'id',
  sort: 'desc',
  per_page: 10,
  page: 1,
  cursor: undefined,
};

describe('list query', () => {
  it('uses the defaults for an empty query', () => {
    // Act / Assess
    expect(parseListQuery({})).toEqual(defaults);
  });

  it('accepts every valid value', () => {
    // Act
    const params = parseListQuery({
      search: '  Mark  ',
      search_by: 'name',
      sort_by: 'name',
      sort: 'asc',
      per_page: '25',
      page: '3',
      cursor: 'abc.def',
    });
    // Assess
    expect(params).toEqual({
      search: 'Mark',
      search_by: 'name',
      sort_by: 'name',
      sort: 'asc',
      per_page: 25,
      page: 3,
      cursor: 'abc.def',
    });
  });

  it.each(['10', '25', '50', '100'])('accepts per_page=%s', (perPage) => {
    // Act / Assess
    expect(parseListQuery({ per_page: perPage }).per_page).toBe(Number(perPage));
  });

  it('is lenient about case and spaces in choices', () => {
    // Act / Assess
    expect(parseListQuery({ sort: ' ASC ', sort_by: 'Name' })).toMatchObject({ sort: 'asc', sort_by: 'name' });
  });

  it.each([
    ['search_by', 'color'],
    ['search_by', ''],
    ['sort_by', 'created_at'],
    ['sort_by', 'color'],
    ['sort', 'up'],
    ['sort', ''],
    ['per_page', '0'],
    ['per_page', '7'],
    ['per_page', '15'],
    ['per_page', '1000'],
    ['per_page', '-10'],
    ['per_page', '25.0'],
    ['per_page', '025'],
    ['per_page', 'abc'],
    ['per_page', ''],
    ['page', '0'],
    ['page', '-1'],
    ['page', '1.5'],
    ['page', 'two'],
    ['page', ''],
    ['page', '1e3'],
    ['page', '99999999999999999999'],
    ['cursor', ''],
  ])('falls back to the default for %s=%j', (field, value) => {
    // Act
    const params = parseListQuery({ [field]: value });
    // Assess
    expect(params).toEqual(defaults);
  });

  it('keeps a search of any length, trimmed: it is never dropped (one longer than any name matches nothing)', () => {
    // Act / Assess
    expect(parseListQuery({ search: 'x'.repeat(256) }).search).toBe('x'.repeat(256));
    expect(parseListQuery({ search: `  ${'x'.repeat(3000)}  ` }).search).toBe('x'.repeat(3000));
  });

  it('ignores unknown parameters', () => {
    // Act / Assess
    expect(parseListQuery({ filter: 'x', limit: '5' })).toEqual(defaults);
  });

  it('keeps a valid parameter when another one falls back', () => {
    // Act
    const params = parseListQuery({ sort: 'sideways', per_page: '50' });
    // Assess
    expect(params).toMatchObject({ sort: 'desc', per_page: 50 });
  });
});
