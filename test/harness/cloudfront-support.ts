/**
 * What the local CloudFront's suites share: one test DNS server per file, a harness per test (closed when it
 * ends), a host name of each test's own, and the failure a call ended with.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, onTestFinished } from 'vitest';
import { type CloudFrontHarness, cloudFrontHarness, type Retries } from '#test/support/cloudfront-harness.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';

let dns: DnsTestServer | undefined;

async function dnsServer(): Promise<DnsTestServer> {
  dns ??= await startDnsServer();
  return dns;
}

afterAll(async () => {
  await dns?.close();
});

/** A harness for this test, closed when it ends, with the file's DNS server. */
export async function harness(
  retries?: Retries,
  options: Omit<Parameters<typeof cloudFrontHarness>[0], 'dns' | 'retries'> = {},
): Promise<CloudFrontHarness & { dns: DnsTestServer }> {
  const server = await dnsServer();
  const cf = await cloudFrontHarness({ dns: server, ...(retries ? { retries } : {}), ...options });
  onTestFinished(() => cf.close());
  return { ...cf, dns: server };
}

/** A host no other test uses. */
export const uniqueHost = (label = 'shop') => `${label}.${randomUUID().slice(0, 8)}.example.com`;

/** The error `promise` was rejected with (an SDK exception), or a failure of the test if it resolved. */
export async function failure(promise: Promise<unknown>): Promise<Error & { $metadata: { httpStatusCode?: number } }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { $metadata: { httpStatusCode?: number } };
  }
  throw new Error('The call succeeded; a failure was expected');
}
