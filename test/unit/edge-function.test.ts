/**
 * The redirect rules (functions/edge/viewer-request.js), run as the local edge runs them: every row of the
 * rules table, with a store that answers like CloudFront's KeyValueStore (`get` throws for a missing key).
 */
import { describe, expect, it } from 'vitest';
import { type EdgeSettings, edgeFunctionSource, loadEdgeFunction } from '#infra/edge-function.ts';

const entries: Record<string, unknown> = {
  'example.com': { s: 'active', i: 'https://www.example.com/home', n: 'https://www.example.com/404', t: 1 },
  'bare.example': { s: 'active', i: '', n: '', t: 1 },
  'xn--bcher-kva.example': { s: 'active', i: 'https://shop.example/', n: '', t: 1 },
  'odd.example': { s: 'pending', i: 'https://x.example/', n: 'https://x.example/', t: 1 },
};
const store = {
  get: async (key: string) => {
    if (!(key in entries)) throw new Error('The key was not found');
    return entries[key];
  },
};
const noDefaults: EdgeSettings = { defaultIndexPage: '', defaultNotFoundPage: '', cacheSeconds: 60 };
const withDefaults: EdgeSettings = {
  defaultIndexPage: 'https://stage.example/welcome',
  defaultNotFoundPage: 'https://stage.example/missing',
  cacheSeconds: 60,
};

async function visit(host: string, uri = '/', method = 'GET', settings = noDefaults) {
  const handler = loadEdgeFunction(settings, store);
  return handler({ request: { method, uri, headers: host ? { host: { value: host } } : {} } });
}

const location = (response: Awaited<ReturnType<typeof visit>>) => response.headers?.location?.value;

describe('the edge function, for an active domain', () => {
  it.each([
    ['GET', '/', 'https://www.example.com/home'],
    ['HEAD', '/', 'https://www.example.com/home'],
    ['GET', '/pricing', 'https://www.example.com/404'],
    ['GET', '/a/b?c', 'https://www.example.com/404'],
    ['HEAD', '/missing', 'https://www.example.com/404'],
  ])('%s %s → 302 to %s, cacheable for a minute, no body', async (method, uri, target) => {
    // Act
    const response = await visit('example.com', uri, method);
    // Assess
    expect(response.statusCode).toBe(302);
    expect(location(response)).toBe(target);
    expect(response.headers?.['cache-control']?.value).toBe('public, max-age=60');
    expect(response.body).toBeUndefined();
  });

  it.each([
    ['EXAMPLE.COM', 'case'],
    ['example.com:8443', 'a port'],
    ['example.com.', 'a trailing dot'],
    ['Example.COM.:80', 'all three'],
  ])('matches the host %s (%s)', async (host) => {
    // Act + Assess
    expect(location(await visit(host))).toBe('https://www.example.com/home');
  });

  it('matches an IDN domain by its punycode form, as browsers send it', async () => {
    // Act + Assess
    expect(location(await visit('xn--bcher-kva.example'))).toBe('https://shop.example/');
  });

  it('sends a domain without its own pages to the stage defaults', async () => {
    // Act
    const index = await visit('bare.example', '/', 'GET', withDefaults);
    const other = await visit('bare.example', '/x', 'GET', withDefaults);
    // Assess
    expect(location(index)).toBe('https://stage.example/welcome');
    expect(location(other)).toBe('https://stage.example/missing');
  });

  it('answers a small HTML 404 when neither the domain nor the stage has the page (and no body to HEAD)', async () => {
    // Act
    const get = await visit('bare.example', '/');
    const head = await visit('bare.example', '/x', 'HEAD');
    const partial = await visit('xn--bcher-kva.example', '/anything');
    // Assess
    expect(get.statusCode).toBe(404);
    expect(get.headers?.['content-type']?.value).toBe('text/html; charset=utf-8');
    expect(get.body?.data).toContain('<title>Not found</title>');
    expect(head.statusCode).toBe(404);
    expect(head.body).toBeUndefined();
    expect(partial.statusCode).toBe(404);
  });
});

describe('the edge function, for anything else', () => {
  it.each([
    ['unknown.example', 'unknown'],
    ['odd.example', 'not active'],
    ['', 'no Host header'],
    ['127.0.0.1', 'an address'],
    ['[::1]:80', 'an IPv6 literal'],
    ['bücher.example', 'raw Unicode (not what a browser sends)'],
    ['example.com..', 'two trailing dots (an empty label: no DNS name)'],
    ['example.com...:443', 'three trailing dots and a port'],
    ['.example.com', 'a leading dot'],
  ])('answers 404 for %s (%s), never a redirect', async (host) => {
    // Act
    const response = await visit(host);
    // Assess
    expect(response.statusCode).toBe(404);
    expect(location(response)).toBeUndefined();
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])('answers %s with 405 and Allow: GET, HEAD', async (method) => {
    // Act
    const response = await visit('example.com', '/', method);
    // Assess
    expect(response.statusCode).toBe(405);
    expect(response.headers?.allow?.value).toBe('GET, HEAD');
  });
});

describe('the function source', () => {
  it('is the file with its settings line written for the stage, and fits CloudFront Functions’ 10 KB', () => {
    // Act
    const source = edgeFunctionSource(withDefaults);
    // Assess
    expect(source).toContain(`const SETTINGS = ${JSON.stringify(withDefaults)};`);
    expect(source).toContain("import cf from 'cloudfront';");
    expect(Buffer.byteLength(source)).toBeLessThan(10 * 1024);
  });
});
