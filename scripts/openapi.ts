/**
 * `npm run openapi`: writes `docs/openapi.json` and the event bus's schema `docs/events/event.v1.schema.json`
 * from the code (formatted as `npm run lint` expects), then renders `docs/api.html`. Commit the JSON files;
 * the page is built on demand (git-ignored).
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { buildDocument } from '#lib/openapi/document.ts';
import { eventBusSchema } from '#lib/openapi/event-schema.ts';
import { buildDocsPage, DOCS_PAGE_FILE, EVENT_SCHEMA_FILE, OPENAPI_FILE } from '#lib/openapi/files.ts';

for (const [file, content] of [
  [OPENAPI_FILE, buildDocument()],
  [EVENT_SCHEMA_FILE, eventBusSchema()],
] as const) {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(content, null, 2)}\n`);
  await promisify(execFile)('node_modules/.bin/biome', ['format', '--write', file]);
  console.log(`Wrote ${file}`);
}
await buildDocsPage();
console.log(`Wrote ${DOCS_PAGE_FILE}`);
