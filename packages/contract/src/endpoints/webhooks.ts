import { defineResource, idParams } from '../define-resource.js';
import { defineEndpoint } from '../endpoint.js';
import { dataResponse, listResponse } from '../schemas/common.js';
import {
  V1Webhook,
  V1WebhookCreate,
  V1WebhookCreated,
  V1WebhookDelivery,
  V1WebhookUpdate,
  WEBHOOK_MAX_CONSECUTIVE_FAILURES,
  WEBHOOK_MAX_ENDPOINTS_PER_TEAM,
  WEBHOOK_RETRY_WINDOW_HOURS,
  WebhookDeliveriesQuery,
  WebhooksQuery,
} from '../schemas/webhook.js';
import { v1 } from './groups.js';

const webhooks = defineResource(v1, {
  name: 'Webhook',
  path: '/webhooks',
  label: 'Webhook endpoint',
  noun: 'endpoint',
  scope: 'webhooks',
  record: V1Webhook,
  createBody: V1WebhookCreate,
  updateBody: V1WebhookUpdate,
  create: {
    description: `The team’s events of the chosen types are POSTed to \`url\` as they happen, each the event exactly as \`GET /events\` shows it, with \`Vsf-Event-Id\` and \`Vsf-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the secret>\`. The endpoint acts with the standing of the key that creates it: it is sent only events of records that key can read (its read scopes then, less any it loses later), nothing while the team's API is off (deliveries resume when it is on again), and it is disabled, with the reason, when that key is revoked or expires. Deliveries are at least once (dedupe by the event id); a non-2xx answer, a 10 s timeout or a connection error is retried with exponential backoff for ${WEBHOOK_RETRY_WINDOW_HOURS} h, after which the endpoint is disabled, as it is after ${WEBHOOK_MAX_CONSECUTIVE_FAILURES} failed attempts in a row. Deliveries are shared fairly: a few attempts at a time per endpoint and per team, so a receiver that never answers delays no other team's. A team has at most ${WEBHOOK_MAX_ENDPOINTS_PER_TEAM} endpoints, enabled or not: one more is a 409 \`conflict\` (\`details.reason: "webhook_endpoint_limit"\`). The \`secret\` is in this response only.`,
    response: 'The endpoint, with its signing secret (shown only here)',
  },
  update: {
    description:
      'A key may change an endpoint only if it has every read scope the endpoint delivers with (403 otherwise), so no key can redirect events it could not read itself.',
  },
  delete: {
    description:
      'Pending deliveries are dropped with it. As for an update, a key must have every read scope the endpoint delivers with (403 otherwise): a key cannot silence deliveries it could not have set up.',
    response: 'The endpoint is deleted',
  },
});

const extension = 'webhooks' as const;
const { listWebhooks: list, getWebhook: get, createWebhook: create } = webhooks.endpoints;
const { updateWebhook: update, deleteWebhook: remove } = webhooks.endpoints;

export const listWebhooks = { ...list, extension, query: WebhooksQuery };
export const getWebhook = { ...get, extension };
export const createWebhook = {
  ...create,
  extension,
  // The one response that carries the secret.
  response: { ...create.response, schema: dataResponse(V1WebhookCreated) },
};
export const updateWebhook = { ...update, extension };
export const deleteWebhook = { ...remove, extension };

export const listWebhookDeliveries = defineEndpoint({
  operationId: 'listWebhookDeliveries',
  surface: 'v1',
  method: 'get',
  path: '/webhooks/{webhookId}/deliveries',
  summary: 'List a webhook endpoint’s deliveries',
  description:
    'The delivery log, most recently attempted first: one delivery per event sent to the endpoint (one event is never delivered twice as two deliveries), with its attempts, status, last HTTP status and error, and when a pending one is tried next. Only deliveries of events about resources the calling key can read are listed (and counted in `total`).',
  scopes: webhooks.scopes.read,
  sdk: { namespace: webhooks.sdk, method: 'listDeliveries' },
  params: idParams('webhookId'),
  query: WebhookDeliveriesQuery,
  response: { status: 200, description: 'A page of deliveries', schema: listResponse(V1WebhookDelivery) },
  paginated: true,
  resourceName: webhooks.label,
  extension,
});
