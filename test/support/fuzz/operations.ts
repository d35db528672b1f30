/**
 * The operations the fuzzer drives: every operation of the OpenAPI document (its query parameters and body
 * schemas resolved), plus, per path, the methods it does not have and OPTIONS, and paths it does not have.
 */
import { type Collection, itemActions } from '#lib/kinds.ts';
import { collectionOf } from '#test/support/fuzz/resources.ts';
import { document, documentOperations, resolveRef } from '#test/support/openapi.ts';

export type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  additionalProperties?: boolean;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
};
export type Parameter = { name: string; in: 'path' | 'query' | 'header'; schema: Schema };

export type Encoding = 'json' | 'form';
export const MEDIA: Record<Encoding, string> = { json: 'application/json', form: 'application/x-www-form-urlencoded' };

/** One operation as the fuzzer drives it. */
export type Operation = {
  id: string;
  method: string;
  /** As the document writes it: `/spaces/{id}`. */
  path: string;
  collection: Collection | undefined;
  action: 'list' | 'store' | 'show' | 'update' | 'destroy' | ItemAction | 'events' | 'document' | 'other' | 'unknown';
  /** For `other`: the methods the path does not have (405), and OPTIONS (the preflight); for `unknown`, any. */
  others?: string[];
  query: Parameter[];
  /** The body's schema per media type, by JSON pointer. */
  bodies: Partial<Record<Encoding, { schema: Schema; pointer: string }>>;
};

/** What an item does besides the resource actions (`/{id}/<action>`), from the kinds. */
export type ItemAction = (typeof itemActions)[Collection][number];
const ITEM_ACTIONS: readonly ItemAction[] = Object.values(itemActions).flat();

function actionOf(method: string, path: string): Operation['action'] {
  if (path === '/openapi.json') return 'document';
  if (path === '/events') return 'events';
  const itemAction = ITEM_ACTIONS.find((action) => path.endsWith(`/{id}/${action}`));
  if (itemAction) return itemAction;
  if (!path.includes('{id}')) return method === 'POST' ? 'store' : 'list';
  if (method === 'DELETE') return 'destroy';
  if (method === 'PUT' || method === 'PATCH') return 'update';
  return 'show';
}

/** Per path, the methods it does not have (405) and OPTIONS (the preflight). */
function otherMethods(): Operation[] {
  return Object.entries(document.paths).map(([path, item]) => ({
    id: `other methods on ${path}`,
    method: 'OPTIONS',
    path,
    collection: undefined,
    action: 'other' as const,
    query: [],
    bodies: {},
    others: [
      'OPTIONS',
      ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((method) => !item['x-allow']?.includes(method)),
    ],
  }));
}

/** Paths under the base path the document does not have: OPTIONS is the preflight, anything else 404. */
const unknownPaths: Operation = {
  id: 'paths the API does not have',
  method: 'OPTIONS',
  path: '/nothing/{id}',
  collection: undefined,
  action: 'unknown',
  query: [],
  bodies: {},
  others: ['OPTIONS', 'OPTIONS', 'GET', 'POST', 'DELETE'],
};

export function operations(): Operation[] {
  return [
    ...documentOperations().map(({ path, method, operation }) => {
      const raw = operation as unknown as {
        parameters?: { $ref: string }[];
        requestBody?: { $ref: string };
      };
      const parameters = (raw.parameters ?? []).map((ref) => resolveRef<Parameter>(ref).value);
      const bodies: Operation['bodies'] = {};
      if (raw.requestBody) {
        const { content } = resolveRef<{ content: Record<string, { schema: Schema }> }>(raw.requestBody).value;
        for (const encoding of ['json', 'form'] as const) {
          const media = content[MEDIA[encoding]];
          if (media) {
            const { value, pointer } = resolveRef<Schema>(media.schema);
            bodies[encoding] = { schema: value, pointer };
          }
        }
      }
      const operationEntry: Operation = {
        id: operation.operationId,
        method,
        path,
        collection: collectionOf(path.split('/')[1]),
        action: actionOf(method, path),
        query: parameters.filter((parameter) => parameter.in === 'query'),
        bodies,
      };
      return operationEntry;
    }),
    ...otherMethods(),
    unknownPaths,
  ];
}
