/**
 * The one map between a webhook's writable fields as the API names them and as its record stores them, apart
 * from the fields' schemas: the presenter, which every function that presents events carries, needs only this.
 */
export const webhookStoredNames = {
  url: 'name',
  events: 'events',
  enabled: 'enabled',
  description: 'description',
} as const;
