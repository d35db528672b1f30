/**
 * The rules of a domain's records (lib/domains/rules/dns-records.ts): what a check's lookups mean for the TXT record and
 * the routing record, and how long a missing TXT record is forgiven.
 */
import { describe, expect, it } from 'vitest';
import type { TxtLookup } from '#lib/dns/rules/answers.ts';
import { afterCheck, graceOver, routeStatus, TXT_GRACE_MS, txtStatus } from '#lib/domains/rules/dns-records.ts';

const EDGE = 'edge.example.net';
const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();

describe('the TXT record', () => {
  it.each<[TxtLookup, string]>([
    [{ kind: 'none' }, 'missing'],
    [{ kind: 'found', values: ['other', ' token '] }, 'found'],
    [{ kind: 'found', values: ['other'] }, 'wrong'],
  ])('%o is %s', (lookup, expected) => {
    expect(txtStatus(lookup, 'token')).toBe(expected);
  });
});

describe('the routing record', () => {
  it.each([
    ['a CNAME to the edge host', { cname: EDGE, addresses: [] }, [], 'found'],
    [
      'a CNAME to the edge host, in capitals with the root dot',
      { cname: 'EDGE.Example.NET.', addresses: [] },
      [],
      'found',
    ],
    ['a CNAME elsewhere', { cname: 'old-host.example.org', addresses: [] }, [], 'wrong'],
    ['nothing at the name', { cname: null, addresses: [] }, ['192.0.2.1'], 'missing'],
    [
      'a flattened record (ALIAS) to the edge’s addresses',
      { cname: null, addresses: ['192.0.2.9', '192.0.2.1'] },
      ['192.0.2.1', '192.0.2.9', '192.0.2.44'],
      'found',
    ],
    [
      'a flattened record with one address that is not the edge’s',
      { cname: null, addresses: ['192.0.2.9', '192.0.2.1'] },
      ['192.0.2.1'],
      'wrong',
    ],
    ['addresses that are not the edge’s', { cname: null, addresses: ['198.51.100.7'] }, ['192.0.2.1'], 'wrong'],
  ] as const)('%s is %s', (_, lookup, edgeAddresses, expected) => {
    expect(routeStatus(lookup, EDGE, edgeAddresses)).toBe(expected);
  });
});

describe('the state kept across checks', () => {
  it('notes when the TXT record went missing, keeps that time while it stays missing or wrong, and forgets it once found', () => {
    // Act
    const first = afterCheck({ txt: 'found', route: 'found' }, { txt: 'missing', route: 'found' }, at(0));
    const second = afterCheck(first, { txt: 'wrong' }, at(3_600_000));
    const back = afterCheck(second, { txt: 'found', route: 'missing' }, at(7_200_000));
    // Assess
    expect(first).toEqual({ txt: 'missing', route: 'found', txtMissingSince: at(0) });
    expect(second).toEqual({ txt: 'wrong', route: 'found', txtMissingSince: at(0) });
    expect(back).toEqual({ txt: 'found', route: 'missing' });
  });

  it('keeps the last status of a record a check could not look up (DNS did not answer, or no TXT to check)', () => {
    // Act
    const state = afterCheck({ txt: 'missing', route: 'wrong', txtMissingSince: at(0) }, {}, at(60_000));
    // Assess
    expect(state).toEqual({ txt: 'missing', route: 'wrong', txtMissingSince: at(0) });
  });

  it('ends the grace period exactly 7 days after the TXT record went missing', () => {
    // Prepare
    const state = { txt: 'missing' as const, txtMissingSince: at(0) };
    // Act / Assess
    expect(TXT_GRACE_MS).toBe(7 * 24 * 60 * 60 * 1000);
    expect(graceOver(state, at(TXT_GRACE_MS - 1))).toBe(false);
    expect(graceOver(state, at(TXT_GRACE_MS))).toBe(true);
    expect(graceOver({ txt: 'found' }, at(TXT_GRACE_MS * 10))).toBe(false);
  });
});
