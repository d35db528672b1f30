/**
 * Transaction conflicts. Real DynamoDB cancels a TransactWriteItems or TransactGetItems that touches an item
 * another transaction has in flight (TransactionCanceledException, reason TransactionConflict at each overlapping
 * position), and refuses a PutItem, UpdateItem or DeleteItem on such an item (TransactionConflictException).
 * DynamoDB Local serialises them instead. Items are identified by table and key: `Update`, `Delete` and
 * `ConditionCheck` name their `Key`, a `Put` carries it in its `Item` (picked out with the table's key schema).
 * Not modelled: an in-flight TransactGetItems holding its items (only writes do), BatchWriteItem conflicts (it is
 * forwarded as is), and conflicts with writes that bypass the harness.
 */
import { type Item, itemId, type Json, keyOf, type TableSchema } from './protocol.ts';

export type Touch = { id: string; table: string; key: Item; writes: boolean };

/** Item identities held by transactions in flight. */
export class InFlight {
  private readonly held = new Set<string>();

  overlaps(touches: Touch[]): boolean[] {
    return touches.map((touch) => this.held.has(touch.id));
  }

  hold(touches: Touch[]): void {
    for (const touch of touches) this.held.add(touch.id);
  }

  release(touches: Touch[]): void {
    for (const touch of touches) this.held.delete(touch.id);
  }

  has(id: string): boolean {
    return this.held.has(id);
  }
}

type Action = { TableName: string; Key?: Item; Item?: Item };

/** The tables a transaction touches (their key schemas are needed to find a Put's key). */
export const transactionTables = (request: Json): string[] => actions(request).map(({ action }) => action.TableName);

/** The items a TransactWriteItems or TransactGetItems touches, one per TransactItem, in order. */
export function transactionTouches(request: Json, schemas: Map<string, TableSchema>): Touch[] {
  return actions(request).map(({ kind, action }) => {
    const schema = schemas.get(action.TableName);
    const key = action.Key ?? (action.Item && schema ? keyOf(action.Item, schema.key) : undefined) ?? {};
    return { id: itemId(action.TableName, key), table: action.TableName, key, writes: kind !== 'ConditionCheck' };
  });
}

/** The item a PutItem, UpdateItem or DeleteItem writes. */
export function singleWriteTouch(request: Json, schemas: Map<string, TableSchema>): Touch {
  const table = String(request.TableName);
  const schema = schemas.get(table);
  const key = (request.Key as Item | undefined) ?? (schema ? keyOf(request.Item as Item, schema.key) : undefined) ?? {};
  return { id: itemId(table, key), table, key, writes: true };
}

/** The items a BatchWriteItem writes. */
export function batchWriteTouches(request: Json, schemas: Map<string, TableSchema>): Touch[] {
  type WriteRequest = { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } };
  return Object.entries((request.RequestItems ?? {}) as Record<string, WriteRequest[]>).flatMap(([table, writes]) =>
    writes.map((write) =>
      singleWriteTouch({ TableName: table, Key: write.DeleteRequest?.Key, Item: write.PutRequest?.Item }, schemas),
    ),
  );
}

function actions(request: Json): { kind: string; action: Action }[] {
  return ((request.TransactItems ?? []) as Record<string, Action>[]).flatMap((entry) =>
    Object.entries(entry).map(([kind, action]) => ({ kind, action })),
  );
}
