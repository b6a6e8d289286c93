import { randomUUID } from 'node:crypto';
import type {
  createWebhook,
  EndpointBody,
  EndpointQuery,
  listWebhookDeliveries,
  updateWebhook,
  V1Webhook,
  V1WebhookCreated,
  V1WebhookDelivery,
} from '@vsf/contract';
import { WEBHOOK_MAX_ENDPOINTS_PER_TEAM } from '@vsf/contract';
import { conflict, forbidden, validationFailed } from '../../errors/api-http-error.js';
import { feedHead } from '../../repositories/team-events.js';
import type { Changes, Executor, ListResult } from '../../repositories/team-scoped-table.js';
import { disableEndpointsOfLostKeys } from '../../repositories/webhook-deliveries.js';
import { type WebhookRow, webhookDeliveriesTable } from '../../repositories/webhook-tables.js';
import { EVENT_RESOURCES, readableEventTypes } from '../../webhooks/event-read-scopes.js';
import { newWebhookSecret } from '../../webhooks/webhook-signature.js';
import { checkWebhookUrl } from '../../webhooks/webhook-url-check.js';
import type { ServiceDeps } from '../service-deps.js';
import { TeamResource } from '../standard/team-resource.js';

export interface WebhookServiceDeps extends ServiceDeps {
  /** Deliveries' options; only `allowHttpLoopback` matters here (whether such a URL may be stored). */
  webhooks?: { allowHttpLoopback: boolean } | undefined;
}

/** The record the API shows: never the secret, the remembered scopes or the dispatcher's bookkeeping. */
function present(row: WebhookRow): V1Webhook {
  const {
    secret: _secret,
    readScopes: _scopes,
    cursor: _cursor,
    consecutiveFailures: _failures,
    apiKeyId: _key,
    ...record
  } = row;
  return record;
}

/**
 * The contract checks a type's shape; a resource no event is ever about (`cars.created`, a typo) would
 * make an endpoint that silently never fires, so it is refused naming the resources there are.
 */
function checkEventTypes(types: readonly string[] | undefined): void {
  const known = EVENT_RESOURCES;
  const unknown = (types ?? []).flatMap((type, index) => {
    const resource = type.split('.')[0] as string;
    return type === '*' || known.has(resource)
      ? []
      : [
          {
            path: `eventTypes.${index}`,
            message: `No event is about "${resource}"; the resources with events are ${[...known].sort().join(', ')}`,
          },
        ];
  });
  if (unknown.length > 0) throw validationFailed(unknown);
}

/**
 * A key may change or delete an endpoint only if it holds every read scope the endpoint delivers with, so
 * no key can redirect, or silence, deliveries of events it could not read itself.
 */
function checkMayChange(endpoint: WebhookRow, scopes: unknown): void {
  const held = scopes instanceof Set ? (scopes as ReadonlySet<string>) : new Set<string>();
  const missing = endpoint.readScopes.find((scope) => !held.has(scope));
  if (missing) throw forbidden(`Missing scope: ${missing} (the endpoint delivers events it can read)`);
}

/**
 * Counted after the insert, in its transaction: a concurrent create in the same team waits on the team's
 * row count (migration 023's trigger) until this one commits, so two at the cap cannot both get in.
 */
async function checkEndpointCount(trx: Executor, teamId: string): Promise<void> {
  const [row] = (await trx('webhooks').where({ team_id: teamId }).count({ n: '*' })) as { n: number | string }[];
  if (Number(row?.n ?? 0) <= WEBHOOK_MAX_ENDPOINTS_PER_TEAM) return;
  throw conflict(
    `This team has ${WEBHOOK_MAX_ENDPOINTS_PER_TEAM} webhook endpoints, the most it may have; delete one it no longer needs (GET /webhooks lists them) or send more event types to one endpoint`,
    { reason: 'webhook_endpoint_limit', limit: WEBHOOK_MAX_ENDPOINTS_PER_TEAM },
  );
}

/** `*` covers every type; a type named twice is stored once. */
const normalized = (types: readonly string[]) => (types.includes('*') ? ['*'] : [...new Set(types)]);

/**
 * Webhook endpoints (the `webhooks` extension). An endpoint keeps the read scopes of the key that created it
 * and is sent only events those scopes can read; a key that lacks one of them may not change it, so no key
 * can point another's events at a URL of its choosing. The dispatcher (webhooks/) does the delivering.
 */
export class Webhooks extends TeamResource<V1Webhook, WebhookRow> {
  constructor(deps: WebhookServiceDeps) {
    super(deps, 'webhooks', { present });
  }

  private get allowHttpLoopback(): boolean {
    return (this.deps as WebhookServiceDeps).webhooks?.allowHttpLoopback ?? false;
  }

  /** Listed as they stand now: endpoints of a key revoked or expired since are shown disabled, with why. */
  override async list(teamId: string, ...args: unknown[]): Promise<ListResult<V1Webhook>> {
    await disableEndpointsOfLostKeys(this.deps.db, this.deps.now(), new Set([teamId]));
    return super.list(teamId, ...args);
  }

  override async get(teamId: string, ...ids: string[]): Promise<V1Webhook> {
    await disableEndpointsOfLostKeys(this.deps.db, this.deps.now(), new Set([teamId]));
    return super.get(teamId, ...ids);
  }

  /**
   * `scopes`: the creating key's; its read scopes are remembered. `keyId`: the key the endpoint acts for
   * (null for an assistant's grant). The secret is in this answer only.
   */
  override async create(
    teamId: string,
    payload: unknown,
    scopes: unknown,
    keyId: string | null = null,
  ): Promise<V1WebhookCreated> {
    const body = payload as EndpointBody<typeof createWebhook>;
    checkWebhookUrl(body.url, this.allowHttpLoopback);
    checkEventTypes(body.eventTypes);
    const now = this.deps.now();
    // Events from now on: the endpoint starts at the end of the team's feed.
    const { lastCursor } = await feedHead(this.deps.db, teamId);
    const row = await this.deps.db.transaction(async (trx) => {
      const inserted = await this.table.insert(
        trx,
        teamId,
        {
          id: randomUUID(),
          url: body.url,
          description: body.description ?? null,
          eventTypes: normalized(body.eventTypes),
          enabled: body.enabled ?? true,
          disabledReason: null,
          secret: newWebhookSecret(),
          readScopes: [...(scopes as ReadonlySet<string>)].filter((scope) => scope.startsWith('read:')).sort(),
          cursor: lastCursor,
          consecutiveFailures: 0,
          apiKeyId: keyId,
        },
        now,
      );
      await checkEndpointCount(trx, teamId);
      return inserted;
    });
    return { ...present(row), secret: row.secret };
  }

  /**
   * `scopes`: the changing key's, which must include every read scope the endpoint delivers with. A key that
   * turns a disabled endpoint back on (`keyId`) is the one it acts for from then on: an endpoint disabled
   * because its key was revoked is taken over by a key that could have set it up.
   */
  override async update(
    teamId: string,
    id: unknown,
    payload: unknown,
    scopes: unknown,
    keyId: string | null = null,
  ): Promise<V1Webhook> {
    const body = payload as EndpointBody<typeof updateWebhook>;
    await disableEndpointsOfLostKeys(this.deps.db, this.deps.now(), new Set([teamId]));
    const current = await this.findRow(teamId, [id as string]);
    checkMayChange(current, scopes);
    if (body.url !== undefined) checkWebhookUrl(body.url, this.allowHttpLoopback);
    checkEventTypes(body.eventTypes);
    const changes: Changes<WebhookRow> = {
      url: body.url,
      description: body.description,
      eventTypes: body.eventTypes && normalized(body.eventTypes),
      enabled: body.enabled,
    };
    if (body.enabled === true) {
      changes.disabledReason = null;
      changes.consecutiveFailures = 0;
      if (!current.enabled) {
        // A disabled endpoint is sent nothing: turned back on, it resumes with the events that happen next.
        changes.cursor = (await feedHead(this.deps.db, teamId)).lastCursor;
        changes.apiKeyId = keyId;
      }
    }
    const updated = await this.table.update(this.deps.db, teamId, id as string, changes, this.deps.now());
    if (!updated) throw this.missing();
    return present(updated);
  }

  /**
   * `scopes`: the deleting key's, as for `update`: deleting an endpoint stops what it delivers, which a key
   * that could not have set it up may not do either. Without them (a caller that passes none) it is refused.
   */
  override async delete(teamId: string, id: string, scopes?: unknown): Promise<{ id: string; deleted: true }> {
    checkMayChange(await this.findRow(teamId, [id]), scopes);
    return super.delete(teamId, id);
  }

  /**
   * The endpoint's delivery log, most recently changed first: only deliveries of events about resources the
   * reading key (`scopes`) can read, as `GET /events` would show it, whatever the endpoint was sent.
   */
  async listDeliveries(
    teamId: string,
    webhookId: string,
    query: EndpointQuery<typeof listWebhookDeliveries>,
    scopes: ReadonlySet<string>,
  ): Promise<ListResult<V1WebhookDelivery>> {
    await this.findRow(teamId, [webhookId]);
    return webhookDeliveriesTable.list(this.deps.db, teamId, query, (q) => {
      q.where(webhookDeliveriesTable.column('webhookId'), webhookId);
      q.whereIn(webhookDeliveriesTable.column('eventType'), readableEventTypes(scopes));
      if (query.status) q.where(webhookDeliveriesTable.column('status'), query.status);
    });
  }
}
