/** Spaces: a named container with a color code from 1 to 6. */

import type { ResourceModule } from '#lib/kind-module.ts';
import type { SpaceRecord } from '#lib/spaces/data/spaces.ts';
import { spaceFieldDocs, spaceFieldTypes, spaceRequestExamples, storeSpaceBody, updateSpaceBody } from './fields.ts';
import { presentSpace } from './present.ts';
import { type Space, spaceExample, spaceSchema } from './schema.ts';

export const spaces = {
  kind: 'space',
  collection: 'spaces',
  description: 'A named container with a color code.',
  bodies: { store: storeSpaceBody, update: updateSpaceBody },
  fieldDocs: spaceFieldDocs,
  fieldTypes: spaceFieldTypes,
  requestExamples: spaceRequestExamples,
  schema: spaceSchema,
  examples: { shown: spaceExample, stored: spaceExample },
  present: (record) => presentSpace(record),
} satisfies ResourceModule<'space', Space, SpaceRecord>;
