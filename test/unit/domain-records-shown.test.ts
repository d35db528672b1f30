/**
 * The routing record a domain's `records` shows: a CNAME to the edge host name, and at a zone apex (the name
 * answered addresses) an ALIAS to the stage's routing endpoint. A Route 53 alias targets an AWS resource (a
 * CloudFront routing endpoint among them) or a record in its own hosted zone ("Choosing between alias and
 * non-alias records", Route 53 Developer Guide), never a stage's own edge host name in another zone; CloudFront's
 * "Request certificates for your CloudFront distribution tenant" names the routing endpoint as the alias target.
 */
import { describe, expect, it } from 'vitest';
import { presentDomain } from '#lib/domains/api/present.ts';
import type { DomainRecord } from '#lib/domains/data/domains.ts';

const ROUTING_ENDPOINT = 'd111111abcdef8.cloudfront.net';
const OWN_NAME = 'edge.example.net';

const domain = (name: string, check: DomainRecord['check']): DomainRecord => ({
  id: 1,
  name,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
  indexPage: null,
  notFoundPage: null,
  status: 'active',
  verificationToken: 'token',
  verifiedAt: '2026-01-01T00:00:00.000Z',
  check,
});
const routing = (item: DomainRecord, edge: Parameters<typeof presentDomain>[1]) =>
  presentDomain(item, edge).records.find((record) => record.type !== 'TXT');

describe("a domain's routing record", () => {
  it("is a CNAME to the edge host name, the stage's own when it has one", () => {
    // Act
    const record = routing(domain('www.example.com', { route: 'found' }), {
      edgeHostname: OWN_NAME,
      edgeRoutingEndpoint: ROUTING_ENDPOINT,
    });
    // Assess
    expect(record).toEqual({ type: 'CNAME', name: 'www.example.com', value: OWN_NAME, status: 'found' });
  });

  it("at a zone apex is an ALIAS to the routing endpoint, not to the stage's own host name in another zone", () => {
    // Act
    const record = routing(domain('example.com', { route: 'found', flattened: true }), {
      edgeHostname: OWN_NAME,
      edgeRoutingEndpoint: ROUTING_ENDPOINT,
    });
    // Assess
    expect(record).toEqual({ type: 'ALIAS', name: 'example.com', value: ROUTING_ENDPOINT, status: 'found' });
  });

  it('at a zone apex of a stage without a name of its own is an ALIAS to the edge host name, its routing endpoint', () => {
    // Act
    const record = routing(domain('example.com', { route: 'wrong', flattened: true }), {
      edgeHostname: ROUTING_ENDPOINT,
    });
    // Assess
    expect(record).toEqual({ type: 'ALIAS', name: 'example.com', value: ROUTING_ENDPOINT, status: 'wrong' });
  });
});
