/** The API's resource shapes: how stored items are shown to clients. */
import type { DomainItem } from '#lib/data/domains.ts';
import type { SpaceItem } from '#lib/data/spaces.ts';

export type Space = { id: number; name: string; color: number; created_at: string; updated_at: string };

export type Domain = {
  id: number;
  name: string;
  index_page: string | null;
  not_found_page: string | null;
  created_at: string;
  updated_at: string;
};

export const presentSpace = (item: SpaceItem): Space => ({
  id: item.id,
  name: item.name,
  color: item.color,
  created_at: item.createdAt,
  updated_at: item.updatedAt,
});

export const presentDomain = (item: DomainItem): Domain => ({
  id: item.id,
  name: item.name,
  index_page: item.indexPage ?? null,
  not_found_page: item.notFoundPage ?? null,
  created_at: item.createdAt,
  updated_at: item.updatedAt,
});

export type Deleted = { id: number; object: 'space' | 'domain'; deleted: true; status: 200 };

export const deleted = (object: Deleted['object'], id: number): Deleted => ({ id, object, deleted: true, status: 200 });
