/**
 * The API's response shapes every kind shares, defined once: the deletion, the list envelope, the errors. Each
 * kind's own shape is in its kind's module (`lib/<kind>/api/`), the change feed's in `lib/feed/schemas.ts`.
 * Objects are strict, so a field that is not described here is also not in the document, and the contract
 * tests reject a response that carries one. Handlers import only the inferred types, so none of this is
 * bundled into a Lambda.
 */
import * as v from 'valibot';
import { kinds } from '#lib/kinds.ts';
import { PER_PAGE_OPTIONS } from './list.ts';
import { id, integer, nullable, url } from './values.ts';

export const deletedSchema = v.strictObject({
  id,
  object: v.picklist(kinds),
  deleted: v.literal(true),
  status: v.literal(200),
});

export const listLinksSchema = v.strictObject({
  first: url('The first page.'),
  last: url('The last page.'),
  prev: nullable(url(), 'The previous page; null on the first.'),
  next: nullable(url(), 'The next page, with a cursor; null on the last.'),
});

export const listMetaSchema = v.strictObject({
  current_page: integer(1),
  from: nullable(integer(1), 'Position of the first item on this page; null when empty.'),
  last_page: integer(1),
  path: url('The list URL without its query.'),
  // The list query's options (the parser types the value as a plain number).
  per_page: v.pipe(integer(1), v.metadata({ enum: [...PER_PAGE_OPTIONS] })),
  to: nullable(integer(1), 'Position of the last item on this page; null when empty.'),
  total: v.pipe(integer(0), v.description('Items matching the search.')),
  next_cursor: nullable(v.string(), 'Opaque cursor of the next page; null on the last.'),
});

/** The list envelope around any resource. */
export const listSchema = <Item extends v.GenericSchema>(item: Item) =>
  v.strictObject({ data: v.array(item), links: listLinksSchema, meta: listMetaSchema, status: v.literal(200) });

/** The envelope of one resource (show, store, update). */
export const singleSchema = <Item extends v.GenericSchema>(item: Item) => v.strictObject({ data: item });

/** Every error answer: the handlers' (`lib/http/errors.ts`) and API Gateway's own (`lib/http/gateway-responses.ts`). */
export const errorSchema = v.strictObject({
  message: v.pipe(v.string(), v.description('What went wrong, safe to show to a user.')),
  status: v.pipe(integer(400, 599), v.description('The HTTP status, repeated.')),
});

export const validationErrorSchema = v.strictObject({
  message: v.pipe(v.string(), v.description('The first error message.')),
  errors: v.pipe(
    v.record(v.string(), v.array(v.string())),
    v.description('Messages by field name (`body` when no single field is at fault).'),
  ),
  status: v.literal(422),
});

export type Deleted = v.InferOutput<typeof deletedSchema>;
export type ListEnvelope<Resource> = Omit<v.InferOutput<ReturnType<typeof listSchema>>, 'data'> & { data: Resource[] };
export type ErrorBody = v.InferOutput<typeof errorSchema>;
export type ValidationErrorBody = v.InferOutput<typeof validationErrorSchema>;
