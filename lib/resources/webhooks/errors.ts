/**
 * What a webhook's own errors mean to a client: its quota is said on `url`, the field a store names it by.
 * The store's handler is given it (`httpHandler(…, webhookErrors)`).
 */
import { QuotaReached } from '#lib/data/errors.ts';
import { type HttpError, QuotaExceededError } from '#lib/errors.ts';

export const webhookErrors = (error: unknown): HttpError | null =>
  error instanceof QuotaReached ? new QuotaExceededError('webhook', error.quota, 'url') : null;
