import { V1WebhookDelivery } from '@vsf/contract';
import { TeamScopedTable } from './team-scoped-table.js';

/** The delivery log as the API shows it; the payload and lease columns stay with the dispatcher. */
export const webhookDeliveriesTable = TeamScopedTable.of<V1WebhookDelivery>('webhook_deliveries', V1WebhookDelivery);

export { type WebhookRow, webhooksTable } from './stored-tables.js';
