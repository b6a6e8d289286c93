import type { WebhooksEndpoints } from '@vsf/contract';
import { storeInsteadOf } from '../../idempotency/stored-response.js';
import type { AuthContext } from '../../services/auth-service.js';
import { listBody, type SpecialHandlers } from '../handler.js';

/**
 * The API key an endpoint set up by this caller acts for: its revocation or expiry disables the endpoint.
 * An assistant's grant is no API key, and its endpoints follow only the team's switch.
 */
function actingKey(auth: AuthContext): string | null {
  return (auth as { kind?: string }).kind === 'grant' ? null : auth.keyId;
}

/** Webhook endpoints: a create, an update, a delete and the delivery log answer to the calling key's scopes. */
export const webhooksHandlers = {
  createWebhook: async ({ auth, body, services }) => {
    const created = await services.resources.webhooks.create(auth.teamId, body, auth.scopes, actingKey(auth));
    // The secret is shown once: a replay of this create (same Idempotency-Key) answers without it.
    return storeInsteadOf({ data: created }, { data: { ...created, secret: null } });
  },
  updateWebhook: async ({ auth, params, body, services }) => ({
    data: await services.resources.webhooks.update(auth.teamId, params.webhookId, body, auth.scopes, actingKey(auth)),
  }),
  deleteWebhook: async ({ auth, params, services }) => ({
    data: await services.resources.webhooks.delete(auth.teamId, params.webhookId, auth.scopes),
  }),
  listWebhookDeliveries: async ({ auth, params, query, services }) =>
    listBody(
      query,
      await services.resources.webhooks.listDeliveries(auth.teamId, params.webhookId, query, auth.scopes),
    ),
} satisfies SpecialHandlers<WebhooksEndpoints>;
