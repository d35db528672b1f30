/** Domains: a name the owner proves by DNS, with the pages its visitors are redirected to. */
import type { DomainRecord } from '#lib/domains/data/domains.ts';
import type { ResourceModule } from '#lib/kind-module.ts';
import {
  domainFieldDocs,
  domainFieldTypes,
  domainRequestExamples,
  storeDomainBody,
  updateDomainBody,
} from './fields.ts';
import { presentDomain } from './present.ts';
import { type Domain, domainExample, domainSchema, storedDomainExample } from './schema.ts';

export const domains = {
  kind: 'domain',
  collection: 'domains',
  description: 'A domain name, with an optional index page and an optional 404 page.',
  bodies: { store: storeDomainBody, update: updateDomainBody },
  fieldDocs: domainFieldDocs,
  fieldTypes: domainFieldTypes,
  requestExamples: domainRequestExamples,
  schema: domainSchema,
  examples: { shown: domainExample, stored: storedDomainExample },
  present: presentDomain,
  notes: {
    store:
      ' The domain is `pending` and does not reserve its name: publish the TXT record of its `verification`, ' +
      'then verify it. The name is refused only when it is active under another owner or when this owner ' +
      'already has it.',
    destroy: '. Deleting an active domain frees its name for any owner to verify',
  },
} satisfies ResourceModule<'domain', Domain, DomainRecord>;
