import type { SpaceRecord } from '#lib/spaces/data/spaces.ts';
import type { Space } from './schema.ts';

export const presentSpace = (record: SpaceRecord): Space => ({
  id: record.id,
  name: record.name,
  color: record.color,
  created_at: record.createdAt,
  updated_at: record.updatedAt,
});
