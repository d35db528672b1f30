/**
 * `npm run openapi`: writes `docs/openapi.json` from the code (formatted as `npm run lint` expects), then
 * renders `docs/api.html` from it. Commit the JSON; the page is built on demand (git-ignored).
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { buildDocument } from '#lib/openapi/document.ts';
import { buildDocsPage, DOCS_PAGE_FILE, OPENAPI_FILE } from '#lib/openapi/files.ts';

await writeFile(OPENAPI_FILE, `${JSON.stringify(buildDocument(), null, 2)}\n`);
await promisify(execFile)('node_modules/.bin/biome', ['format', '--write', OPENAPI_FILE]);
console.log(`Wrote ${OPENAPI_FILE}`);
await buildDocsPage();
console.log(`Wrote ${DOCS_PAGE_FILE}`);
