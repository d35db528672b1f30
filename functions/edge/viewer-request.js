// The redirect rules of a served domain: a CloudFront Function (runtime cloudfront-js-2.0, viewer request)
// that answers every visitor from the CloudFront KeyValueStore, without calling any origin. The local edge
// (infra/local/edge.ts) runs this very file in a sandbox, with a key-value store fed from the local changes.
//
// The store holds one key per active domain: its ASCII (punycode) name, lower case, the value the compact
// entry `{"s":"active","i":<index page or "">,"n":<not-found page or "">,"t":<ms>}` (lib/edge/rules/entry.ts).
// Plain JavaScript within what runtime 2.0 accepts: no imports but `cloudfront`, no Node APIs.
import cf from 'cloudfront';

const kvs = cf.kvs();

// The stage's settings. This one line is rewritten at synth (infra/constructs/edge.ts) and by the local edge.
const SETTINGS = { defaultIndexPage: '', defaultNotFoundPage: '', cacheSeconds: 60 };

const NOT_FOUND_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>Not found</title></head>' +
  '<body><h1>Not found</h1><p>Nothing is served at this address.</p></body></html>';

/**
 * The host a visitor asked for: lower case, without a port or the one trailing dot of a fully qualified name;
 * '' when it is no DNS name (`name..` is none: an empty label).
 */
function hostOf(request) {
  const header = request.headers.host;
  let host = header ? String(header.value).trim().toLowerCase() : '';
  const colon = host.indexOf(':');
  if (colon !== -1) host = host.slice(0, colon);
  if (host.endsWith('.')) host = host.slice(0, -1);
  // Browsers send an IDN host in its ASCII form (punycode), which is how the store keys it.
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host) ? host : '';
}

function cacheControl() {
  return { value: `public, max-age=${SETTINGS.cacheSeconds}` };
}

function notFound(method) {
  const response = {
    statusCode: 404,
    statusDescription: 'Not Found',
    headers: { 'content-type': { value: 'text/html; charset=utf-8' }, 'cache-control': cacheControl() },
  };
  // A HEAD answer has no body.
  if (method === 'GET') response.body = { encoding: 'text', data: NOT_FOUND_HTML };
  return response;
}

function redirect(location) {
  return {
    statusCode: 302,
    statusDescription: 'Found',
    headers: { location: { value: location }, 'cache-control': cacheControl() },
  };
}

async function entryOf(host) {
  if (host === '') return null;
  try {
    return await kvs.get(host, { format: 'json' });
  } catch (_missing) {
    // get() throws for a key the store does not hold: an unknown, pending or deleted domain.
    return null;
  }
}

// CloudFront calls `handler` by name; the file exports nothing (runtime 2.0 takes no exports).
// biome-ignore lint/correctness/noUnusedVariables: called by CloudFront and the local edge, by name
async function handler(event) {
  const request = event.request;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return {
      statusCode: 405,
      statusDescription: 'Method Not Allowed',
      headers: { allow: { value: 'GET, HEAD' }, 'cache-control': cacheControl() },
    };
  }
  const entry = await entryOf(hostOf(request));
  // biome-ignore lint/complexity/useOptionalChain: kept to what runtime 2.0 is documented to parse
  if (!entry || entry.s !== 'active') return notFound(request.method);
  const page = request.uri === '/' ? entry.i || SETTINGS.defaultIndexPage : entry.n || SETTINGS.defaultNotFoundPage;
  return page ? redirect(page) : notFound(request.method);
}
