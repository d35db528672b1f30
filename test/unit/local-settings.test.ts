/**
 * `npm start`'s settings (infra/local/settings.ts): the local CloudFront's port, and whether webhooks may call
 * this machine, by default only when every listener is on the loopback.
 */
import { describe, expect, it } from 'vitest';
import { localSettings } from '#infra/local/settings.ts';

describe('the local stack settings', () => {
  it('puts the local CloudFront on CLOUDFRONT_PORT, by default PORT + 2 (any free port with PORT=0)', () => {
    // Act / Assess
    expect(localSettings({}).cloudfrontPort).toBe(3002);
    expect(localSettings({ PORT: '4000' }).cloudfrontPort).toBe(4002);
    expect(localSettings({ PORT: '0' }).cloudfrontPort).toBe(0);
    expect(localSettings({ CLOUDFRONT_PORT: '9100' }).cloudfrontPort).toBe(9100);
    expect(() => localSettings({ CLOUDFRONT_PORT: 'x' })).toThrow(
      'CLOUDFRONT_PORT must be a port number (0-65535), not "x".',
    );
  });

  it.each([
    [undefined, true],
    ['127.0.0.1', true],
    ['127.0.0.2', true],
    ['::1', true],
    ['localhost', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.20', false],
  ])('lets webhooks call this machine by default with HOST=%s: %s', (host, allowed) => {
    // Act / Assess
    expect(localSettings(host === undefined ? {} : { HOST: host }).webhookLocalLoopback).toBe(allowed);
  });

  it('takes WEBHOOK_LOCAL_LOOPBACK as given, true or false', () => {
    // Act / Assess
    expect(localSettings({ HOST: '0.0.0.0', WEBHOOK_LOCAL_LOOPBACK: 'true' }).webhookLocalLoopback).toBe(true);
    expect(localSettings({ WEBHOOK_LOCAL_LOOPBACK: 'false' }).webhookLocalLoopback).toBe(false);
    expect(() => localSettings({ WEBHOOK_LOCAL_LOOPBACK: 'yes' })).toThrow(
      'WEBHOOK_LOCAL_LOOPBACK must be true or false, not "yes".',
    );
  });
});
