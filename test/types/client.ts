/**
 * What the compiler refuses about the typed client (`npm run typecheck` compiles this file): a collection of
 * `lib/kinds.ts`, or of the OpenAPI document the client's types are generated from (`client/src/schema.ts`),
 * without its `api.<collection>` in `client/src/client.ts` (`Client`). The error names what to add.
 */

import type { Collection } from '#lib/kinds.ts';
import type { Client } from '../../client/src/client.ts';
import type { paths } from '../../client/src/schema.ts';

/** The collections the document has paths for (`/<collection>/{id}`). */
type DocumentCollection = { [P in keyof paths]: P extends `/${infer C}/{id}` ? C : never }[keyof paths];

/** `'complete'` when every collection has its object in the client; otherwise what to add, by name. */
type Completeness<Missing extends string> = [Missing] extends [never]
  ? 'complete'
  : { 'add api.<collection> to Client in client/src/client.ts, for': Missing };

export const everyKind: Completeness<Exclude<Collection, keyof Client>> = 'complete';
export const everyDocumentedCollection: Completeness<Exclude<DocumentCollection, keyof Client>> = 'complete';

/** A kind the client does not have yet, as a new kind would be before its object is added. */
// @ts-expect-error: the client lacks api.links.
export const withoutLinks: Completeness<Exclude<Collection | 'links', keyof Client>> = 'complete';
