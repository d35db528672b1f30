/** One OpenAPI operation per route and method of the route table. */
import { deleted } from '#lib/resources.ts';
import { apiBasePath, type HttpMethod, type Route } from '#lib/routes.ts';
import { examples, listExample } from './examples.ts';
import { listParameterNames } from './parameters.ts';
import { type ErrorName, errorStatus, JSON_TYPE, jsonContent, responseRef } from './responses.ts';

export const FORM_TYPE = 'application/x-www-form-urlencoded';

const collections = {
  spaces: { tag: 'Spaces', single: 'space', title: 'Space', item: examples.space },
  domains: { tag: 'Domains', single: 'domain', title: 'Domain', item: examples.domain },
} as const;

type Collection = (typeof collections)[keyof typeof collections];

const ALWAYS: ErrorName[] = ['Unauthenticated', 'TooManyRequests', 'ServerError', 'ServiceUnavailable'];
const WITH_BODY: ErrorName[] = ['BadRequest', 'PayloadTooLarge', 'UnsupportedMediaType', 'ValidationFailed'];

const success = (description: string, content: object) => ({
  description,
  headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } },
  content,
});

const single = (c: Collection) => jsonContent(`${c.title}Response`, { data: c.item });
const requestBody = (name: string) => ({ $ref: `#/components/requestBodies/${name}` });

type Spec = { summary: string; description: string; success: [number, object]; errors: ErrorName[]; more?: object };

const actions: Record<string, (c: Collection, method: HttpMethod) => Spec> = {
  list: (c) => ({
    summary: `List ${c.single}s`,
    description:
      `The owner's ${c.single}s, one page at a time. \`links.next\` carries a \`cursor\`: following it ` +
      'reads only about `per_page` items, however deep the page.',
    success: [
      200,
      success(
        'One page, with links to the others.',
        jsonContent(`${c.title}List`, listExample(`${c.single}s`, c.item)),
      ),
    ],
    errors: ['ValidationFailed'],
    more: { parameters: listParameterNames().map((name) => ({ $ref: `#/components/parameters/${name}` })) },
  }),
  store: (c) => ({
    summary: `Store a ${c.single}`,
    description: `Stores a new ${c.single} for the key's owner. Send the fields as a form or as JSON.`,
    success: [201, success(`The stored ${c.single}.`, single(c))],
    errors: WITH_BODY,
    more: { requestBody: requestBody(`Store${c.title}`) },
  }),
  show: (c) => ({
    summary: `Show a ${c.single}`,
    description: `One of the owner's ${c.single}s.`,
    success: [200, success(`The ${c.single}.`, single(c))],
    errors: ['NotFound'],
  }),
  update: (c, method) => ({
    summary: method === 'PATCH' ? `Update a ${c.single}` : `Update a ${c.single} (PUT)`,
    description: `A partial update: absent fields are unchanged. PUT and PATCH behave the same.`,
    success: [200, success(`The updated ${c.single}.`, single(c))],
    errors: ['NotFound', ...WITH_BODY],
    more: { requestBody: requestBody(`Update${c.title}`) },
  }),
  destroy: (c) => ({
    summary: `Delete a ${c.single}`,
    description: `Deletes the ${c.single}; its id is never used again${c.single === 'domain' ? ', and its name is free to store again' : ''}.`,
    success: [200, success(`The ${c.single} is deleted.`, jsonContent('Deleted', deleted(c.single, c.item.id)))],
    errors: ['NotFound'],
  }),
};

const operationId = (action: string, c: Collection, method: HttpMethod) => {
  if (action === 'list') return `list${c.title}s`;
  if (action === 'update' && method === 'PUT') return `put${c.title}`;
  return `${action}${c.title}`;
};

/** The path as the document writes it: relative to the servers, which end in the base path. */
export const documentPath = (route: Route) => route.path.slice(apiBasePath.length);

export function operation(route: Route, method: HttpMethod) {
  const [action = ''] = route.name.split('-');
  const collection = collections[documentPath(route).split('/')[1] as keyof typeof collections];
  const build = actions[action];
  if (!collection || !build) throw new Error(`No documentation for route ${route.name} (${route.path})`);
  const spec = build(collection, method);
  const errors = [...ALWAYS, ...spec.errors].sort((a, b) => errorStatus(a) - errorStatus(b));
  return {
    operationId: operationId(action, collection, method),
    tags: [collection.tag],
    summary: spec.summary,
    description: spec.description,
    ...(route.path.includes('{id}') ? { parameters: [{ $ref: '#/components/parameters/Id' }] } : {}),
    ...spec.more,
    responses: {
      [spec.success[0]]: spec.success[1],
      ...Object.fromEntries(errors.map((name) => [errorStatus(name), responseRef(name)])),
    },
  };
}

/** Request bodies: each accepts a form or JSON, with the same fields. */
export function requestBodies() {
  const body = (schema: string, example: object) => ({
    // An update without a body changes nothing; a store without one answers 422.
    required: schema.startsWith('Store'),
    content: {
      [FORM_TYPE]: { schema: { $ref: `#/components/schemas/${schema}Request` }, example },
      [JSON_TYPE]: { schema: { $ref: `#/components/schemas/${schema}Request` }, example },
    },
  });
  return {
    StoreSpace: body('StoreSpace', examples.storeSpace),
    UpdateSpace: body('UpdateSpace', examples.updateSpace),
    StoreDomain: body('StoreDomain', examples.storeDomain),
    UpdateDomain: body('UpdateDomain', examples.updateDomain),
  };
}
