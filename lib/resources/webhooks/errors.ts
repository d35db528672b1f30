/**
 * What a webhook's own errors mean to a client: its quota is said on `url`, the field a store names it by; DNS
 * that gave no answer while its URL's host was checked is a 503 with `Retry-After`, as for a verification. The
 * store's and the update's handlers are given it (`httpHandler(…, webhookErrors)`).
 */
import { QuotaReached } from '#lib/data/errors.ts';
import { type HttpError, QuotaExceededError } from '#lib/errors.ts';
import { dnsErrors } from '#lib/http/dns-errors.ts';

export const webhookErrors = (error: unknown): HttpError | null =>
  error instanceof QuotaReached ? new QuotaExceededError('webhook', error.quota, 'url') : dnsErrors(error);
