/**
 * A typed client for the Domains and Spaces API.
 *
 * ```ts
 * import { ApiError, createClient } from '@domains-spaces/client';
 * const api = createClient({ baseUrl: 'http://127.0.0.1:3000/api/v1', apiKey: process.env.API_KEY ?? '' });
 * const { data: space, etag } = await api.spaces.store({ name: 'Marketing', color: 3 });
 * await api.spaces.update(space.id, { color: 4 }, { ifMatch: etag });
 * for await (const each of api.spaces.list({ sortBy: 'name', sort: 'asc' })) console.log(each.name);
 * ```
 */
export {
  type Account,
  type AccountApi,
  type AccountEvent,
  type CallOptions,
  type Client,
  type ClientOptions,
  type Collection,
  type ConditionalWriteOptions,
  createClient,
  type Deleted,
  type DeliveriesOptions,
  type Delivery,
  type DeliveryList,
  type Domain,
  type DomainEvent,
  type DomainList,
  type Domains,
  type Event,
  type EventFeed,
  type EventList,
  type Events,
  type EventsOptions,
  type ListOptions,
  type NotModified,
  type Paginated,
  type PollOptions,
  type Result,
  type Show,
  type ShowOptions,
  type Space,
  type SpaceEvent,
  type SpaceList,
  type Spaces,
  type StoreDomain,
  type StoreSpace,
  type StoreWebhook,
  type UpdateDomain,
  type UpdateSpace,
  type UpdateWebhook,
  type Webhook,
  type WebhookEvent,
  type WebhookList,
  type Webhooks,
  type WebhookWithSecret,
  type WriteOptions,
} from './client.js';
export { ApiError } from './errors.js';
export { RETRY_DEFAULTS, type RetryOptions } from './retry.js';
export type { components, operations, paths } from './schema.js';
