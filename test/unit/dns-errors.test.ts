import { describe, expect, it } from 'vitest';
import { DnsUnavailableError } from '#lib/dns/errors.ts';
import { dnsErrors } from '#lib/http/dns-errors.ts';
import { ServiceUnavailableError } from '#lib/http/errors.ts';

describe('DNS that gave no answer, as a client reads it', () => {
  it('is a 503 with Retry-After that says DNS could not be reached, and names the resolver DNS_RESOLVER named', () => {
    // Act
    const error = dnsErrors(new DnsUnavailableError('ETIMEOUT', 'hooks.example.com', { servers: ['127.0.0.1:5354'] }));
    // Assess
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error?.headers).toEqual({ 'Retry-After': '5' });
    expect(error?.body()).toEqual({
      message:
        'DNS could not be reached: the DNS resolver at 127.0.0.1:5354 did not answer the lookup of hooks.example.com. Please retry.',
      status: 503,
    });
  });

  it('names every server asked, and says which answered that it could not look the name up', () => {
    // Act
    const error = dnsErrors(
      new DnsUnavailableError('ESERVFAIL', '_ds-challenge.example.com', { servers: ['10.0.0.2:53', '[::1]:53'] }),
    );
    // Assess
    expect(error?.body().message).toBe(
      'DNS could not answer: the DNS resolvers at 10.0.0.2:53, [::1]:53 answered SERVFAIL to the lookup of _ds-challenge.example.com. Please retry.',
    );
  });

  it.each([
    ['ETIMEOUT', 'did not answer'],
    ['EAI_AGAIN', 'did not answer'],
    ['ECONNREFUSED', 'did not answer'],
  ])('says only "the DNS resolver" for the system’s (Lambda’s): no address, no code (%s)', (code, said) => {
    // Act
    const message = dnsErrors(new DnsUnavailableError(code, 'example.com'))?.body().message;
    // Assess
    expect(message).toBe(`DNS could not be reached: the DNS resolver ${said} the lookup of example.com. Please retry.`);
    expect(message).not.toContain(code);
  });

  it('leaves any other error to the rest of the mapping', () => {
    // Act / Assess
    expect(dnsErrors(new Error('ETIMEOUT'))).toBeNull();
  });
});
