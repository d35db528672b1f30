/**
 * What a request may send of a domain: the name (`name.ts`) and the pages (`pages.ts`), the bodies they make
 * (with the one map between the API's names and the record's), each field's documentation and
 * the bodies' examples. How the API shows a domain is `schema.ts`. A function's bundle takes the request
 * schemas only (the documentation is dropped as unused).
 */
import type { JsonSchema } from '@valibot/to-json-schema';
import { type FieldDocs, mapped, type RequestExample, readOnlyFields, storedFields } from '#lib/kind-module.ts';
import { type Mode, optional, requestBody, required } from '#lib/schemas/request.ts';
import { domainName, domainNameDoc, domainNameType, PLATFORM_DOMAINS } from './name.ts';
import { pageDoc, pageUrl } from './pages.ts';
import type { Domain } from './schema.ts';

/**
 * The one map between a domain's writable fields as the API names them and as its record stores them: the
 * request schemas below, the presenter (`present.ts`) and the errors (`errors.ts`) all read it. A field added
 * here, to the bodies and to the response schema (`schema.ts`) is shown and written with no other change in
 * this folder.
 */
export const domainStoredNames = { index_page: 'indexPage', not_found_page: 'notFoundPage' } as const;

export type DomainWritable = keyof typeof domainStoredNames;

/** The API's name of a stored attribute. */
export const apiNameOf = (attribute: (typeof domainStoredNames)[DomainWritable]): DomainWritable =>
  (Object.keys(domainStoredNames) as DomainWritable[]).find(
    (field) => domainStoredNames[field] === attribute,
  ) as DomainWritable;

/** The domain's fields a client never writes: all but its pages (the name is given once, at store). */
export const DOMAIN_READ_ONLY = /* @__PURE__ */ readOnlyFields<Domain, 'index_page' | 'not_found_page'>()([
  'id',
  'name',
  'unicode_name',
  'idn_warning',
  'status',
  'serving',
  'serving_error',
  'records',
  'verification',
  'verified_at',
  'last_checked_at',
  'created_at',
  'updated_at',
]);

/**
 * A missing name is required; missing pages are none. `reserved`: the names no customer may hold, the stage's
 * own (`reservedNamesOf`, with its edge host name); the platform's without one.
 */
const storeBody = (reserved: readonly string[]) =>
  requestBody({
    name: required((encoding) => domainName(encoding, reserved)),
    index_page: optional(pageUrl('index_page'), null),
    not_found_page: optional(pageUrl('not_found_page'), null),
  });

export const storeDomainBody = /* @__PURE__ */ storeBody(PLATFORM_DOMAINS);

/** The body as the data layer takes it (a page on the domain itself is its rule: `PageLoopError`). */
export const storeDomainSchemaFor = (reserved: readonly string[]) =>
  mapped(storeBody(reserved), (body) => storedFields(domainStoredNames, body));

export const storeDomainSchema = /* @__PURE__ */ storeDomainSchemaFor(PLATFORM_DOMAINS);

/**
 * The name is not accepted on update: it never changes (a form's is ignored, JSON's is a 422). Absent pages
 * stay, empty (or null) ones are cleared.
 */
export const updateDomainBody = /* @__PURE__ */ requestBody(
  {
    index_page: /* @__PURE__ */ optional(/* @__PURE__ */ pageUrl('index_page')),
    not_found_page: /* @__PURE__ */ optional(/* @__PURE__ */ pageUrl('not_found_page')),
  },
  { readOnly: DOMAIN_READ_ONLY },
);

export const updateDomainSchema = /* @__PURE__ */ mapped(updateDomainBody, (body) =>
  storedFields(domainStoredNames, body),
);

/** The field types the bodies share, by component name. */
export const domainFieldTypes = { DomainName: domainNameType };

export const domainFieldDocs: FieldDocs<{ store: typeof storeDomainBody; update: typeof updateDomainBody }> = {
  name: domainNameDoc,
  index_page: (mode, encoding): JsonSchema => pageDoc('of the index page', mode, encoding),
  not_found_page: (mode, encoding): JsonSchema => pageDoc('to redirect to when a page is not found', mode, encoding),
};

export const domainRequestExamples: Record<Mode, RequestExample> = {
  store: {
    json: { name: 'example.com', index_page: 'https://www.example.com/welcome' },
    form: { name: 'example.com', index_page: 'https://www.example.com/welcome' },
  },
  update: {
    json: { not_found_page: 'https://www.example.com/404', index_page: null },
    form: { not_found_page: 'https://www.example.com/404' },
  },
};
