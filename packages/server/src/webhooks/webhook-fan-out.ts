import type { V1Event } from '@vsf/contract';
import type { Executor } from '../repositories/team-scoped-table.js';
import {
  advanceCursor,
  type EndpointBehind,
  endpointsBehind,
  insertDeliveries,
  numberHookedTeams,
} from '../repositories/webhook-deliveries.js';
import type { EventsService } from '../services/events-service.js';
import { effectiveReadScopes } from './event-read-scopes.js';

/** Events one endpoint's fan-out reads per page, and the pages one pass gives it before moving on. */
const PAGE = 200;
const PAGES_PER_PASS = 5;

export interface FanOutDeps {
  db: Executor;
  now: () => Date;
  events: Pick<EventsService, 'presentedAfter'>;
}

/** Whether an endpoint subscribed to an event of this type. */
export function subscribes(eventTypes: readonly string[], type: string): boolean {
  return eventTypes.includes('*') || eventTypes.includes(type);
}

/**
 * Turns new events into deliveries: for each endpoint that may be sent anything now (enabled, its team's API
 * on, its key valid) behind its team's feed, the events after its cursor that its key's read scopes can see (presented by the events feed itself, so a webhook carries
 * exactly what `GET /events` shows that key), of the types it subscribed to. Instances may do this at the
 * same time: the delivery's unique key keeps one row per event, and the cursor only moves forward.
 * Returns the deliveries created, and whether an endpoint has more waiting.
 */
export async function fanOut(
  deps: FanOutDeps,
  teams?: ReadonlySet<string>,
): Promise<{ created: number; more: boolean }> {
  let created = 0;
  let more = false;
  // Heads move only as the inbox is numbered (migration 034): what waits there is what endpoints are behind.
  await numberHookedTeams(deps.db, teams);
  for (const endpoint of await endpointsBehind(deps.db, deps.now(), teams)) {
    const result = await fanOutOne(deps, endpoint);
    created += result.created;
    more ||= result.more;
  }
  return { created, more };
}

async function fanOutOne(deps: FanOutDeps, endpoint: EndpointBehind): Promise<{ created: number; more: boolean }> {
  // What its key reads now: a key narrowed since the endpoint was set up narrows what it is sent.
  const scopes = effectiveReadScopes(endpoint.readScopes, endpoint.keyScopes);
  let cursor = endpoint.cursor;
  let created = 0;
  for (let page = 0; page < PAGES_PER_PASS; page++) {
    const read = await deps.events.presentedAfter(endpoint.teamId, scopes, cursor, PAGE);
    const wanted = read.events.filter((event) => subscribes(endpoint.eventTypes, event.type));
    created += await insertDeliveries(
      deps.db,
      wanted.map((event) => delivery(endpoint, event)),
      deps.now(),
    );
    // Recorded only once the deliveries are: an instance that stops between the two re-reads, never skips.
    await advanceCursor(deps.db, endpoint.id, read.nextCursor);
    cursor = read.nextCursor;
    if (!read.hasMore) return { created, more: false };
  }
  return { created, more: true };
}

function delivery(endpoint: EndpointBehind, event: V1Event) {
  return {
    teamId: endpoint.teamId,
    webhookId: endpoint.id,
    eventId: event.id,
    eventCursor: event.cursor,
    eventType: event.type,
    // The feed's object, serialized once: every attempt signs and sends these bytes.
    payload: JSON.stringify(event),
  };
}
