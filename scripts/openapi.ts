/**
 * `npm run openapi`: writes `docs/openapi.json`, the event bus's schema `docs/events/event.v1.schema.json` and
 * the webhook body's `docs/events/webhook.v1.schema.json` from the code (formatted as `npm run lint` expects), the typed client's types `client/src/schema.ts` from that
 * document (openapi-typescript), then renders `docs/api.html`. Commit the JSON files and the client's types;
 * the page is built on demand (git-ignored). `--help` prints the usage and writes nothing.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { buildDocument } from '#lib/openapi/document.ts';
import { eventBusSchema, webhookBodySchema } from '#lib/openapi/event-schema.ts';
import {
  buildDocsPage,
  DOCS_PAGE_FILE,
  documentText,
  EVENT_SCHEMA_FILE,
  OPENAPI_FILE,
  WEBHOOK_SCHEMA_FILE,
} from '#lib/openapi/files.ts';
import { CLIENT_SCHEMA_FILE, clientSchemaSource } from '../client/scripts/schema.ts';

const shown = (file: string) => relative(process.cwd(), file);

const written = [
  [OPENAPI_FILE, 'the OpenAPI 3.1 document (commit it)'],
  [EVENT_SCHEMA_FILE, "the event bus's event schema (commit it)"],
  [WEBHOOK_SCHEMA_FILE, 'the schema of what a webhook is sent (commit it)'],
  [CLIENT_SCHEMA_FILE, "the TypeScript client's types, from that document (commit it)"],
  [DOCS_PAGE_FILE, 'the reference page (git-ignored)'],
].map(([file = '', what]) => `  ${shown(file).padEnd(34)} ${what}`);

const usage = `Usage: npm run openapi [-- --help]

Generates from the code, and writes:
${written.join('\n')}

The contract tests fail while a committed file differs from what this generates.

Options:
  -h, --help   print this and exit, writing nothing`;

let help: boolean | undefined;
try {
  ({
    values: { help },
  } = parseArgs({ options: { help: { type: 'boolean', short: 'h' } } }));
} catch (error) {
  console.error(`${(error as Error).message}\n\n${usage}`);
  process.exit(2);
}
if (help) {
  console.log(usage);
  process.exit(0);
}

const format = (file: string) => promisify(execFile)('node_modules/.bin/biome', ['format', '--write', file]);

for (const [file, content] of [
  [OPENAPI_FILE, buildDocument()],
  [EVENT_SCHEMA_FILE, eventBusSchema()],
  [WEBHOOK_SCHEMA_FILE, webhookBodySchema()],
] as const) {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, documentText(content));
  await format(file);
  console.log(`Wrote ${file}`);
}
// From the document just written, so the client's types are the document's.
await writeFile(CLIENT_SCHEMA_FILE, await clientSchemaSource(OPENAPI_FILE));
console.log(`Wrote ${CLIENT_SCHEMA_FILE}`);
await buildDocsPage();
console.log(`Wrote ${DOCS_PAGE_FILE}`);
