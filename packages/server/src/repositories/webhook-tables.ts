import { V1WebhookDelivery } from '@vsf/contract';
import { TeamScopedTable } from './team-scoped-table.js';

/** A webhook endpoint as stored (migration 025): the record the API shows, and what it never shows. */
export interface WebhookRow {
  id: string;
  teamId: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
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

/** The delivery log as the API shows it; the payload and lease columns stay with the dispatcher. */
export const webhookDeliveriesTable = TeamScopedTable.of<V1WebhookDelivery>('webhook_deliveries', V1WebhookDelivery);
