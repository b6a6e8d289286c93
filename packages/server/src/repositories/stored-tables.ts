import { type V1EventType, V1RsvpOption, type V1Webhook } from '@vsf/contract';
import { TeamScopedTable } from './team-scoped-table.js';

// The tables that are not a contract record stored as is: rows with columns the API does not show, or
// shows reshaped (an event type's `config`), a table shared by two resources (`media`), or an older name
// (RSVP options). resource-tables.ts names them for their resources; every other table is derived.

/** Event types keep `config.requiresParkingSpot` in its own column. */
export interface EventTypeRow extends Omit<V1EventType, 'config'> {
  requiresParkingSpot: boolean;
}
export const eventTypesTable = TeamScopedTable.ofRow<EventTypeRow>(
  'event_types',
  ['id', 'teamId', 'value', 'name', 'scope', 'requiresParkingSpot', 'isDefault', 'createdAt', 'updatedAt'],
  { requiresParkingSpot: 'boolean', isDefault: 'boolean' },
);

export function toEventType({ requiresParkingSpot, ...rest }: EventTypeRow): V1EventType {
  return { ...rest, config: { requiresParkingSpot } };
}

/** Stored bytes' metadata; `url` is derived, the bytes live in the blob store. */
export interface MediaRow {
  id: string;
  teamId: string;
  kind: 'car_photo' | 'asset';
  carId: string | null;
  sessionId: string | null;
  filename: string;
  contentType: string;
  sizeBytes: number;
  storageKey: string;
  createdAt: string;
  updatedAt: string;
}
export const mediaTable = TeamScopedTable.ofRow<MediaRow>(
  'media',
  [
    'id',
    'teamId',
    'kind',
    'carId',
    'sessionId',
    'filename',
    'contentType',
    'sizeBytes',
    'storageKey',
    'createdAt',
    'updatedAt',
  ],
  { sizeBytes: 'integer' },
);

/** An asset's own metadata; its bytes, type and size are the `media` row with the same id. */
export interface MarketingAssetRow {
  id: string;
  teamId: string;
  folderId: string | null;
  name: string;
  createdAt: string;
  updatedAt: string;
}
export const marketingAssetsTable = TeamScopedTable.ofRow<MarketingAssetRow>('marketing_assets', [
  'id',
  'teamId',
  'folderId',
  'name',
  'createdAt',
  'updatedAt',
]);

/** Stored under the name it had before resources were named by their records. */
export const rsvpOptionsTable = TeamScopedTable.of<V1RsvpOption>('social_event_rsvp_options', V1RsvpOption);

/** A webhook endpoint as stored (migration 025): the record the API shows, and what it never shows. */
export interface WebhookRow extends Omit<V1Webhook, 'createdAt' | 'updatedAt'> {
  /** The signing secret, shown once, in the create response. */
  secret: string;
  /** The read scopes of the key that created it: the events it may be sent. */
  readScopes: string[];
  /** The last cursor of the team's feed fanned out to it. */
  cursor: number;
  /** Failed attempts in a row; a success resets it, and enough of them disable the endpoint. */
  consecutiveFailures: number;
  /**
   * The key the endpoint acts for (migration 029): the one that created it or last enabled it again. Its
   * revocation or expiry disables the endpoint; null before that migration and for an assistant's grant.
   */
  apiKeyId: string | null;
  createdAt: string;
  updatedAt: string;
}

export const webhooksTable = TeamScopedTable.ofRow<WebhookRow>(
  'webhooks',
  [
    'id',
    'teamId',
    'url',
    'description',
    'eventTypes',
    'enabled',
    'disabledReason',
    'secret',
    'readScopes',
    'cursor',
    'consecutiveFailures',
    'apiKeyId',
    'createdAt',
    'updatedAt',
  ],
  { eventTypes: 'json', readScopes: 'json', enabled: 'boolean', cursor: 'integer', consecutiveFailures: 'integer' },
);
