/**
 * The DynamoDB JSON protocol (`X-Amz-Target: DynamoDB_20120810.<Operation>`, AttributeValue JSON) as far as the
 * harness needs it: item identities, the order of key values, top-level projections and the error answers
 * real DynamoDB gives on a transaction conflict. Number keys are ordered as JS numbers (exact up to 2^53).
 */
import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';

export type AttributeValue = Record<string, unknown>;
export type Item = Record<string, AttributeValue>;
export type Json = Record<string, unknown>;
export type KeySchema = { hash: string; range?: string };
/** A table's primary key and each index's key, from DescribeTable. */
export type TableSchema = { key: KeySchema; indexes: Map<string, KeySchema> };
/** An HTTP answer, raw: what the target said, or what the harness says instead. */
export type Answer = { status: number; headers: Record<string, string | string[]>; body: Buffer };

const targetPrefix = 'DynamoDB_20120810.';

export function operationOf(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.startsWith(targetPrefix) ? value.slice(targetPrefix.length) : undefined;
}

/** JSON with sorted object keys: the same key gives the same identity whatever order its attributes come in. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, each]) => `${JSON.stringify(name)}:${canonical(each)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const keyNames = (schema: KeySchema): string[] => (schema.range ? [schema.hash, schema.range] : [schema.hash]);

/** The key attributes of an item; undefined when one is missing (a projection left it out). */
export function keyOf(item: Item, schema: KeySchema): Item | undefined {
  const key: Item = {};
  for (const name of keyNames(schema)) {
    const value = item[name];
    if (!value) return undefined;
    key[name] = value;
  }
  return key;
}

/** One item's identity across tables: what conflicts and visibility are tracked by. */
export const itemId = (table: string, key: Item): string => `${table}\u0000${canonical(key)}`;

/** Orders two key values as DynamoDB does: S and B by their bytes, N by value. */
export function compareKeyValues(a: AttributeValue, b: AttributeValue): number {
  if (typeof a.N === 'string' && typeof b.N === 'string') return Math.sign(Number(a.N) - Number(b.N));
  if (typeof a.B === 'string' && typeof b.B === 'string') {
    return Buffer.compare(Buffer.from(a.B, 'base64'), Buffer.from(b.B, 'base64'));
  }
  return Buffer.compare(Buffer.from(String(a.S ?? '')), Buffer.from(String(b.S ?? '')));
}

export const sameValue = (a: AttributeValue | undefined, b: AttributeValue | undefined): boolean =>
  a !== undefined && b !== undefined && canonical(a) === canonical(b);

/**
 * The top-level attributes a ProjectionExpression names. A nested path (`a.b`, `a[0]`) keeps its whole top-level
 * attribute: the harness over-delivers there rather than evaluating document paths.
 */
export function projectedNames(expression: string, names: Record<string, string> = {}): string[] {
  return expression
    .split(',')
    .map((path) => path.trim().split(/[.[]/)[0] ?? '')
    .filter((name) => name !== '')
    .map((name) => (name.startsWith('#') ? (names[name] ?? name) : name));
}

export function project(item: Item, names: string[] | undefined): Item {
  if (!names) return item;
  return Object.fromEntries(Object.entries(item).filter(([name]) => names.includes(name)));
}

/** A JSON answer with the headers the SDK reads: its length, and the CRC32 DynamoDB sends of every body. */
export function jsonAnswer(status: number, body: Json, headers: Answer['headers'] = {}): Answer {
  const bytes = Buffer.from(JSON.stringify(body));
  return {
    status,
    headers: {
      'x-amzn-requestid': randomUUID(),
      ...headers,
      'content-type': 'application/x-amz-json-1.0',
      'content-length': String(bytes.byteLength),
      'x-amz-crc32': String(crc32(bytes)),
    },
    body: bytes,
  };
}

export type CancellationCode = 'None' | 'TransactionConflict';

/** DynamoDB's answer to a transaction that touches an item another transaction has in flight. */
export function transactionCanceled(codes: CancellationCode[]): Answer {
  return jsonAnswer(400, {
    __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
    CancellationReasons: codes.map((Code) =>
      Code === 'None' ? { Code } : { Code, Message: 'Transaction is ongoing for the item' },
    ),
    Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
  });
}

/** DynamoDB's answer to a single-item write on an item a transaction has in flight. */
export const transactionConflict = (): Answer =>
  jsonAnswer(400, {
    __type: 'com.amazonaws.dynamodb.v20120810#TransactionConflictException',
    message: 'Transaction is ongoing for the item',
  });
