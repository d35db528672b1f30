/** What every stored space and domain is: the record the data layer reads, writes and returns. */
import type { TableKey } from '#lib/table.ts';
import type { Kind } from './keys.ts';

/** Attributes every stored space and domain carries. */
export type StoredItem = TableKey & {
  lsi1sk: string;
  kind: Kind;
  id: number;
  name: string;
  fold: string;
  createdAt: string;
  updatedAt: string;
  /** Incremented by every write (the ETag); items stored before versions existed have none: version 0. */
  version?: number;
};
