import { z } from '../zod.js';
import { LineText } from './bounds.js';
import { listQueryShape, Timestamp, Uuid } from './common.js';
import { httpsUrlProblem, MAX_URL_LENGTH } from './media-url.js';
import { teamRecord } from './team-record.js';

/** What starts every signing secret, so a leaked one is recognisable in logs and scanners. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** The most event types one endpoint names. */
export const MAX_WEBHOOK_EVENT_TYPES = 50;
/** How long a delivery is retried after its first attempt before it is `failed` (24 h). */
export const WEBHOOK_RETRY_WINDOW_HOURS = 24;
/**
 * The most endpoints one team may have (enabled or not): deliveries are shared fairly between teams, and a
 * cap keeps one team's fan-out and retries bounded. Creating one more answers 409.
 */
export const WEBHOOK_MAX_ENDPOINTS_PER_TEAM = 50;
/** Failed attempts in a row after which an endpoint is disabled. */
export const WEBHOOK_MAX_CONSECUTIVE_FAILURES = 50;

/** `<resource>.<action>` as an event's `type` spells it (`car.created`), or `*` for every event. */
export const WEBHOOK_EVENT_TYPE_PATTERN = /^(\*|[a-z][a-z0-9_]{0,63}\.(created|updated|deleted))$/;

export const WebhookEventType = z
  .string()
  .max(80)
  .regex(WEBHOOK_EVENT_TYPE_PATTERN, 'Expected `<resource>.<created|updated|deleted>` (car.created) or `*`')
  .openapi({ example: 'car.created' });

/**
 * `http://127.0.0.1:<port>/…`, spelled out: a receiver on the server's own machine. The contract lets the
 * form through so one schema serves every server; a server refuses it unless started with
 * `VSF_WEBHOOK_ALLOW_HTTP_LOOPBACK=1` (tests, local development).
 */
export function isLoopbackHttpUrl(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (!/^http:\/\/127\.0\.0\.1:\d{1,5}(?:[/?#]|$)/.test(value) || /[\s\\\u0000-\u001f\u007f]/.test(value)) return false;
  try {
    const url = new URL(value);
    return url.hostname === '127.0.0.1' && url.port !== '' && url.port !== '0';
  } catch {
    return false;
  }
}

/** Where deliveries are POSTed: the rules of every URL the API fetches (`HttpsUrl`), or the loopback form. */
export const WebhookUrl = z
  .string()
  .max(MAX_URL_LENGTH, `A URL may have at most ${MAX_URL_LENGTH} characters`)
  .superRefine((value, ctx) => {
    // `.max` has said so already (it counts code points).
    if (Array.from(value).length > MAX_URL_LENGTH || isLoopbackHttpUrl(value)) return;
    const problem = httpsUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .openapi({
    format: 'uri',
    description:
      'An absolute https:// URL with a host (no credentials, whitespace or backslashes) whose host resolves to public addresses only; checked again before every delivery. `http://127.0.0.1:<port>` only on a server started with `VSF_WEBHOOK_ALLOW_HTTP_LOOPBACK=1`.',
    example: 'https://hooks.example.com/vsf',
  });

const EventTypes = z
  .array(WebhookEventType)
  .min(1)
  .max(MAX_WEBHOOK_EVENT_TYPES)
  .openapi({
    description: `The event types delivered (\`car.created\`, \`customer.deleted\`), or \`["*"]\` for all; at most ${MAX_WEBHOOK_EVENT_TYPES}. A type whose resource has no events (\`cars.created\`) is refused (400). Only events of records the creating key could read are ever delivered.`,
    example: ['car.created', 'car.updated'],
  });

export const V1Webhook = teamRecord(
  'V1Webhook',
  {
    url: z.string(),
    description: z.string().nullable(),
    eventTypes: z.array(z.string()),
    enabled: z.boolean(),
    disabledReason: z.string().nullable().openapi({
      description:
        'Why the server disabled the endpoint (deliveries failing for 24 h, 50 failed attempts in a row, or the API key it acts for revoked or expired); null otherwise. Setting `enabled: true` clears it (a key with every read scope the endpoint delivers with; the endpoint then acts for that key).',
    }),
  },
  'An endpoint the team’s events are POSTed to, signed with its secret (`Vsf-Signature`)',
);
export type V1Webhook = z.infer<typeof V1Webhook>;

export const V1WebhookCreated = V1Webhook.extend({
  secret: z.string().nullable().openapi({
    description:
      'The signing secret (`whsec_…`): shown only in this response. `Vsf-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` signs `<t>.<raw body>` with its UTF-8 bytes as the key. null in a replay of the create (the same `Idempotency-Key`, `Idempotent-Replayed: true`): the secret is never stored with the replay, so if the first answer was lost, delete the endpoint and create it again.',
    example: 'whsec_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  }),
}).openapi('V1WebhookCreated');
export type V1WebhookCreated = z.infer<typeof V1WebhookCreated>;

export const V1WebhookCreate = z
  .strictObject({
    url: WebhookUrl,
    description: LineText.nullable().optional(),
    eventTypes: EventTypes,
    enabled: z.boolean().optional().openapi({ description: 'Deliver to it (default true)' }),
  })
  .openapi('V1WebhookCreate');
export type V1WebhookCreate = z.input<typeof V1WebhookCreate>;

export const V1WebhookUpdate = z
  .strictObject({
    url: WebhookUrl.optional(),
    description: LineText.nullable().optional(),
    eventTypes: EventTypes.optional(),
    enabled: z.boolean().optional().openapi({
      description:
        'false stops deliveries; true resumes them from the events that happen next and clears `disabledReason`',
    }),
  })
  .openapi('V1WebhookUpdate');
export type V1WebhookUpdate = z.input<typeof V1WebhookUpdate>;

export const WebhookDeliveryStatus = z.enum(['pending', 'succeeded', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

export const V1WebhookDelivery = z
  .object({
    id: Uuid,
    webhookId: Uuid,
    eventId: Uuid.openapi({ description: 'The event’s `id`, also sent as `Vsf-Event-Id`: a receiver dedupes by it' }),
    eventType: z.string().openapi({ example: 'car.created' }),
    status: WebhookDeliveryStatus,
    attempts: z.number().int().min(0).openapi({ description: 'POSTs made so far' }),
    lastResponseStatus: z.number().int().nullable().openapi({ description: 'The HTTP status of the last attempt' }),
    lastError: z.string().nullable().openapi({ description: 'Why the last attempt failed; null after a success' }),
    nextAttemptAt: Timestamp.nullable().openapi({ description: 'When a pending delivery is next tried' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('V1WebhookDelivery');
export type V1WebhookDelivery = z.infer<typeof V1WebhookDelivery>;

/**
 * Paging only: endpoints are settings, not records with events, so there is no `updatedAfter` for a mirror
 * (`vsf sync`) to follow them by.
 */
export const WebhooksQuery = z.strictObject({ page: listQueryShape.page, limit: listQueryShape.limit });

export const WebhookDeliveriesQuery = z.strictObject({
  page: listQueryShape.page,
  limit: listQueryShape.limit,
  status: WebhookDeliveryStatus.optional().openapi({ description: 'Only deliveries in this state' }),
});
