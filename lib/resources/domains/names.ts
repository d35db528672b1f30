/**
 * The one map between a domain's writable fields as the API names them and as its record stores them: the
 * request schemas (`fields.ts`), the presenter (`present.ts`) and the HTTP errors (`lib/http/domain-errors.ts`)
 * all read it. Its own module, so that every function's error middleware can read it without the schemas.
 */
export const domainStoredNames = { index_page: 'indexPage', not_found_page: 'notFoundPage' } as const;

export type DomainWritable = keyof typeof domainStoredNames;

/** The API's name of a stored attribute. */
export const apiNameOf = (attribute: (typeof domainStoredNames)[DomainWritable]): DomainWritable =>
  (Object.keys(domainStoredNames) as DomainWritable[]).find(
    (field) => domainStoredNames[field] === attribute,
  ) as DomainWritable;
