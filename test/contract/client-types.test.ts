/**
 * The typed client's types (`client/src/schema.ts`) are what openapi-typescript generates from the committed
 * OpenAPI document, as `npm run openapi` writes them: a change to the document without them fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILE } from '#lib/openapi/files.ts';
import { CLIENT_SCHEMA_FILE, clientSchemaSource } from '../../client/scripts/schema.ts';

describe("the client's types", () => {
  it('are what docs/openapi.json generates (run `npm run openapi` after changing the document)', async () => {
    // Act
    const generated = await clientSchemaSource(OPENAPI_FILE);
    const committed = readFileSync(CLIENT_SCHEMA_FILE, 'utf8');
    // Assess
    expect(committed).toBe(generated);
  });
});
