/**
 * The harness's side of DynamoDB Local: forwarding a request as it came (bytes untouched, over a keep-alive
 * agent), and the harness's own direct calls (table key schemas, before-images) that never pass through the
 * proxy. DynamoDB Local checks that a request carries credentials, not its signature, so forwarded requests keep
 * theirs and direct calls reuse the caller's `authorization` header (it selects the database when DynamoDB Local
 * runs without -sharedDb).
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Answer, Item, Json, KeySchema, TableSchema } from './protocol.ts';

/** Hop-by-hop headers, and accept-encoding: the harness must be able to read (and rewrite) every answer. */
const notForwarded = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'accept-encoding', 'expect']);

export type Target = {
  forward(headers: IncomingHttpHeaders, body: Buffer): Promise<Answer>;
  /** A direct call; throws on any answer but 200. */
  call(operation: string, input: Json, authorization: string | undefined): Promise<Json>;
  schemaOf(table: string, authorization: string | undefined): Promise<TableSchema>;
  /** The items' current images (undefined: no such item), read in one TransactGetItems. */
  images(keys: { table: string; key: Item }[], authorization: string | undefined): Promise<(Item | undefined)[]>;
  close(): void;
};

export function connectTarget(endpoint: string): Target {
  const url = new URL(endpoint);
  const agent = new Agent({ keepAlive: true });
  const schemas = new Map<string, Promise<TableSchema>>();

  const forward = (headers: IncomingHttpHeaders, body: Buffer) =>
    new Promise<Answer>((resolve, reject) => {
      const outgoing: Record<string, string | string[]> = { host: url.host, 'content-length': String(body.length) };
      for (const [name, value] of Object.entries(headers)) {
        if (value !== undefined && !notForwarded.has(name) && name !== 'content-length') outgoing[name] = value;
      }
      const sent = httpRequest(
        { host: url.hostname, port: url.port, path: '/', method: 'POST', headers: outgoing, agent },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const answerHeaders: Answer['headers'] = {};
            for (const [name, value] of Object.entries(response.headers)) {
              if (value !== undefined && !notForwarded.has(name)) answerHeaders[name] = value;
            }
            resolve({ status: response.statusCode ?? 502, headers: answerHeaders, body: Buffer.concat(chunks) });
          });
        },
      );
      sent.on('error', reject);
      sent.end(body);
    });

  const call = async (operation: string, input: Json, authorization: string | undefined) => {
    const headers = {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': `DynamoDB_20120810.${operation}`,
      authorization:
        authorization ??
        'AWS4-HMAC-SHA256 Credential=local/20250101/local/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
    };
    const answer = await forward(headers, Buffer.from(JSON.stringify(input)));
    const body = JSON.parse(answer.body.toString() || '{}') as Json;
    if (answer.status !== 200) throw new Error(`${operation} on the target: ${answer.status} ${JSON.stringify(body)}`);
    return body;
  };

  const describe = async (table: string, authorization: string | undefined): Promise<TableSchema> => {
    type Described = { KeySchema: { AttributeName: string; KeyType: string }[]; IndexName?: string };
    const { Table } = (await call('DescribeTable', { TableName: table }, authorization)) as {
      Table: Described & { LocalSecondaryIndexes?: Described[]; GlobalSecondaryIndexes?: Described[] };
    };
    const keyOf = ({ KeySchema: elements }: Described): KeySchema => {
      const hash = elements.find((each) => each.KeyType === 'HASH')?.AttributeName ?? '';
      const range = elements.find((each) => each.KeyType === 'RANGE')?.AttributeName;
      return range ? { hash, range } : { hash };
    };
    const indexes = [...(Table.LocalSecondaryIndexes ?? []), ...(Table.GlobalSecondaryIndexes ?? [])];
    return { key: keyOf(Table), indexes: new Map(indexes.map((index) => [index.IndexName ?? '', keyOf(index)])) };
  };

  return {
    forward,
    call,
    schemaOf(table, authorization) {
      let schema = schemas.get(table);
      if (!schema) {
        schema = describe(table, authorization);
        // A failed describe (no such table yet) is asked again next time, not remembered.
        schema.catch(() => schemas.delete(table));
        schemas.set(table, schema);
      }
      return schema;
    },
    async images(keys, authorization) {
      if (keys.length === 0) return [];
      const input = { TransactItems: keys.map(({ table, key }) => ({ Get: { TableName: table, Key: key } })) };
      const { Responses } = (await call('TransactGetItems', input, authorization)) as { Responses: { Item?: Item }[] };
      return Responses.map((response) => response.Item);
    },
    close: () => agent.destroy(),
  };
}
