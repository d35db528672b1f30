/**
 * The documents the local gateway serves without authentication, before route matching: the OpenAPI
 * document and the reference page rendered from it. (On AWS, API Gateway serves the document itself, the
 * committed file as an S3 object: `infra/constructs/openapi-document.ts`; the page is not deployed.)
 */
import { readFile } from 'node:fs/promises';
import { apiBasePath } from '#lib/routes.ts';
import { LOCAL_SERVER } from './examples.ts';
import { DOCS_PAGE_FILE, OPENAPI_FILE } from './files.ts';

/** The origin the committed documents name for the local stack (servers, examples): the default port. */
const DOCUMENTED_ORIGIN = new URL(LOCAL_SERVER).origin;

export const OPENAPI_PATH = `${apiBasePath}/openapi.json`;
export const DOCS_PATH = '/docs';

/** Each published path's file and media type. */
export const published: Record<string, { file: string; contentType: string }> = {
  [OPENAPI_PATH]: { file: OPENAPI_FILE, contentType: 'application/json' },
  [DOCS_PATH]: { file: DOCS_PAGE_FILE, contentType: 'text/html; charset=utf-8' },
};

export type PublishedResponse = { statusCode: number; headers: Record<string, string>; body: string };

/**
 * The answer for a published document (GET, or HEAD: the same without the body), or undefined when the request
 * is for the API itself. `origin` is where this gateway listens: the documents then name it instead of the
 * default port.
 */
export async function publishedDocument(
  method: string,
  path: string,
  origin = DOCUMENTED_ORIGIN,
  files: Record<string, { file: string; contentType: string }> = published,
): Promise<PublishedResponse | undefined> {
  const entry = files[path];
  if (!entry || (method !== 'GET' && method !== 'HEAD')) return undefined;
  const answer = (statusCode: number, contentType: string, body: string): PublishedResponse => ({
    statusCode,
    headers: { 'Content-Type': contentType, ...(statusCode === 200 ? { 'Cache-Control': 'no-cache' } : {}) },
    body: method === 'HEAD' ? '' : body,
  });
  try {
    return answer(200, entry.contentType, (await readFile(entry.file, 'utf8')).replaceAll(DOCUMENTED_ORIGIN, origin));
  } catch {
    const message = `${path} is not built yet: run npm run openapi.`;
    return answer(404, 'application/json', JSON.stringify({ message, status: 404 }));
  }
}
