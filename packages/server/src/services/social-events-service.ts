import { randomUUID } from 'node:crypto';
import type {
  createRsvpOption,
  createSocialEvent,
  createSocialEventInvite,
  createSocialEventRsvp,
  EndpointBody,
  EndpointQuery,
  listRsvpOptions,
  listSocialEventInvites,
  listSocialEventRsvps,
  listSocialEvents,
  updateRsvpOption,
  updateSocialEvent,
  updateSocialEventRsvp,
  V1RsvpOption,
  V1SocialEvent,
  V1SocialEventInvite,
  V1SocialEventRsvp,
} from '@vsf/contract';
import { conflict, notFound, validationFailed } from '../errors/api-http-error.js';
import { invitesTable, rsvpOptionsTable, rsvpsTable, socialEventsTable } from '../repositories/engagement-tables.js';
import { contactsTable, customersTable, locationsTable } from '../repositories/tables.js';
import type { Executor, ListResult, TeamScopedTable } from '../repositories/team-scoped-table.js';
import { checkReferences } from './check-references.js';
import type { ServiceDeps } from './service-deps.js';

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
const codeOf = (error: unknown) => (error as { code?: string }).code;

/** A record of one of the event's child tables, or 404 (also when it belongs to another event). */
async function childOf<R extends { id: string; eventId: string }>(
  db: Executor,
  table: TeamScopedTable<R>,
  teamId: string,
  eventId: string,
  id: string,
  resource: string,
): Promise<R> {
  const record = await table.findById(db, teamId, id);
  if (!record || record.eventId !== eventId) throw notFound(resource);
  return record;
}

export class SocialEventsService {
  constructor(private readonly deps: ServiceDeps) {}

  list(teamId: string, query: EndpointQuery<typeof listSocialEvents>): Promise<ListResult<V1SocialEvent>> {
    return socialEventsTable.list(this.deps.db, teamId, query, (q) => {
      if (query.from)
        q.whereRaw('coalesce(social_events.ends_at, social_events.starts_at) >= ?', [new Date(query.from)]);
      if (query.to) q.where('social_events.starts_at', '<', new Date(query.to));
      if (query.locationId) q.where('social_events.location_id', query.locationId);
      if (query.status) q.where('social_events.status', query.status);
    });
  }

  async get(teamId: string, id: string): Promise<V1SocialEvent> {
    const event = await socialEventsTable.findById(this.deps.db, teamId, id);
    if (!event) throw notFound('Social event');
    return event;
  }

  async create(teamId: string, body: EndpointBody<typeof createSocialEvent>): Promise<V1SocialEvent> {
    await checkReferences(this.deps.db, teamId, [
      { path: 'locationId', id: body.locationId, table: locationsTable, resource: 'Location' },
    ]);
    return socialEventsTable.insert(
      this.deps.db,
      teamId,
      {
        id: randomUUID(),
        name: body.name,
        description: body.description ?? null,
        startsAt: new Date(body.startsAt).toISOString(),
        endsAt: body.endsAt ? new Date(body.endsAt).toISOString() : null,
        locationId: body.locationId ?? null,
        venue: body.venue ?? null,
        capacity: body.capacity ?? null,
        status: 'scheduled',
      },
      this.deps.now(),
    );
  }

  async update(teamId: string, id: string, body: EndpointBody<typeof updateSocialEvent>): Promise<V1SocialEvent> {
    const current = await this.get(teamId, id);
    await checkReferences(this.deps.db, teamId, [
      { path: 'locationId', id: body.locationId, table: locationsTable, resource: 'Location' },
    ]);
    const startsAt = body.startsAt ? new Date(body.startsAt).toISOString() : undefined;
    const endsAt = body.endsAt ? new Date(body.endsAt).toISOString() : body.endsAt;
    const nextEnd = endsAt === undefined ? current.endsAt : endsAt;
    if (nextEnd && Date.parse(nextEnd) <= Date.parse(startsAt ?? current.startsAt))
      throw validationFailed([{ path: 'endsAt', message: 'endsAt must be after startsAt' }]);
    return (await socialEventsTable.update(
      this.deps.db,
      teamId,
      id,
      { ...body, startsAt, endsAt },
      this.deps.now(),
    )) as V1SocialEvent;
  }

  /** The event and all its staff data (RSVPs, invites, options), all or nothing. */
  async delete(teamId: string, id: string) {
    await this.deps.db.transaction(async (trx) => {
      if (!(await socialEventsTable.findById(trx, teamId, id, { forUpdate: true }))) throw notFound('Social event');
      // Children first: RSVPs point at invites and options.
      await rsvpsTable.scoped(trx, teamId).where('social_event_rsvps.event_id', id).delete();
      await invitesTable.scoped(trx, teamId).where('social_event_invites.event_id', id).delete();
      await rsvpOptionsTable.scoped(trx, teamId).where('social_event_rsvp_options.event_id', id).delete();
      await socialEventsTable.delete(trx, teamId, id);
    });
    return { id, deleted: true as const };
  }

  private async requireEvent(teamId: string, eventId: string): Promise<void> {
    if (!(await socialEventsTable.exists(this.deps.db, teamId, eventId))) throw notFound('Social event');
  }

  async listOptions(
    teamId: string,
    eventId: string,
    query: EndpointQuery<typeof listRsvpOptions>,
  ): Promise<ListResult<V1RsvpOption>> {
    await this.requireEvent(teamId, eventId);
    return rsvpOptionsTable.list(this.deps.db, teamId, query, (q) =>
      q.where('social_event_rsvp_options.event_id', eventId),
    );
  }

  getOption(teamId: string, eventId: string, id: string): Promise<V1RsvpOption> {
    return childOf(this.deps.db, rsvpOptionsTable, teamId, eventId, id, 'RSVP option');
  }

  async createOption(
    teamId: string,
    eventId: string,
    body: EndpointBody<typeof createRsvpOption>,
  ): Promise<V1RsvpOption> {
    await this.requireEvent(teamId, eventId);
    return rsvpOptionsTable.insert(
      this.deps.db,
      teamId,
      {
        id: randomUUID(),
        eventId,
        label: body.label,
        description: body.description ?? null,
        attending: body.attending ?? true,
        sortOrder: body.sortOrder ?? 0,
      },
      this.deps.now(),
    );
  }

  async updateOption(
    teamId: string,
    eventId: string,
    id: string,
    body: EndpointBody<typeof updateRsvpOption>,
  ): Promise<V1RsvpOption> {
    await this.getOption(teamId, eventId, id);
    return (await rsvpOptionsTable.update(this.deps.db, teamId, id, body, this.deps.now())) as V1RsvpOption;
  }

  async deleteOption(teamId: string, eventId: string, id: string) {
    await this.getOption(teamId, eventId, id);
    try {
      await rsvpOptionsTable.delete(this.deps.db, teamId, id);
    } catch (error) {
      if (codeOf(error) === FOREIGN_KEY_VIOLATION)
        throw conflict('RSVPs chose this option; move them to another option first');
      throw error;
    }
    return { id, deleted: true as const };
  }

  async listInvites(
    teamId: string,
    eventId: string,
    query: EndpointQuery<typeof listSocialEventInvites>,
  ): Promise<ListResult<V1SocialEventInvite>> {
    await this.requireEvent(teamId, eventId);
    return invitesTable.list(this.deps.db, teamId, query, (q) => {
      q.where('social_event_invites.event_id', eventId);
      if (query.customerId) q.where('social_event_invites.customer_id', query.customerId);
    });
  }

  getInvite(teamId: string, eventId: string, id: string): Promise<V1SocialEventInvite> {
    return childOf(this.deps.db, invitesTable, teamId, eventId, id, 'Invite');
  }

  async createInvite(
    teamId: string,
    eventId: string,
    body: EndpointBody<typeof createSocialEventInvite>,
  ): Promise<V1SocialEventInvite> {
    const db = this.deps.db;
    await this.requireEvent(teamId, eventId);
    const guest = await this.guestOf(db, teamId, body);
    if (!guest.customerId) throw validationFailed([{ path: 'customerId', message: 'Send customerId or contactId' }]);
    try {
      return await invitesTable.insert(
        db,
        teamId,
        {
          id: randomUUID(),
          eventId,
          customerId: guest.customerId,
          contactId: guest.contactId,
          note: body.note ?? null,
        },
        this.deps.now(),
      );
    } catch (error) {
      if (codeOf(error) === UNIQUE_VIOLATION) throw conflict('Already invited to this event');
      throw error;
    }
  }

  async deleteInvite(teamId: string, eventId: string, id: string) {
    await this.getInvite(teamId, eventId, id);
    try {
      await invitesTable.delete(this.deps.db, teamId, id);
    } catch (error) {
      if (codeOf(error) === FOREIGN_KEY_VIOLATION)
        throw conflict('The invite has been answered; its RSVP points at it');
      throw error;
    }
    return { id, deleted: true as const };
  }

  async listRsvps(
    teamId: string,
    eventId: string,
    query: EndpointQuery<typeof listSocialEventRsvps>,
  ): Promise<ListResult<V1SocialEventRsvp>> {
    await this.requireEvent(teamId, eventId);
    return rsvpsTable.list(this.deps.db, teamId, query, (q) => {
      q.where('social_event_rsvps.event_id', eventId);
      if (query.rsvpOptionId) q.where('social_event_rsvps.rsvp_option_id', query.rsvpOptionId);
      if (query.customerId) q.where('social_event_rsvps.customer_id', query.customerId);
    });
  }

  getRsvp(teamId: string, eventId: string, id: string): Promise<V1SocialEventRsvp> {
    return childOf(this.deps.db, rsvpsTable, teamId, eventId, id, 'RSVP');
  }

  async createRsvp(
    teamId: string,
    eventId: string,
    body: EndpointBody<typeof createSocialEventRsvp>,
  ): Promise<V1SocialEventRsvp> {
    const db = this.deps.db;
    await this.requireEvent(teamId, eventId);
    await this.requireOption(teamId, eventId, body.rsvpOptionId);
    let guest: { customerId: string | null; contactId: string | null };
    if (body.inviteId) {
      const invite = await invitesTable.findById(db, teamId, body.inviteId);
      if (!invite || invite.eventId !== eventId)
        throw validationFailed([{ path: 'inviteId', message: 'Not an invite of this event' }]);
      guest = { customerId: invite.customerId, contactId: invite.contactId };
    } else {
      guest = await this.guestOf(db, teamId, body);
    }
    const now = this.deps.now();
    try {
      return await rsvpsTable.insert(
        db,
        teamId,
        {
          id: randomUUID(),
          eventId,
          rsvpOptionId: body.rsvpOptionId,
          inviteId: body.inviteId ?? null,
          ...guest,
          name: body.name ?? null,
          email: body.email ?? null,
          guestCount: body.guestCount ?? 1,
          note: body.note ?? null,
          respondedAt: now.toISOString(),
        },
        now,
      );
    } catch (error) {
      if (codeOf(error) === UNIQUE_VIOLATION) throw conflict('This invite has an RSVP already; update that one');
      throw error;
    }
  }

  async updateRsvp(
    teamId: string,
    eventId: string,
    id: string,
    body: EndpointBody<typeof updateSocialEventRsvp>,
  ): Promise<V1SocialEventRsvp> {
    const current = await this.getRsvp(teamId, eventId, id);
    if (body.rsvpOptionId) await this.requireOption(teamId, eventId, body.rsvpOptionId);
    const now = this.deps.now();
    const answerChanged = body.rsvpOptionId !== undefined && body.rsvpOptionId !== current.rsvpOptionId;
    return (await rsvpsTable.update(
      this.deps.db,
      teamId,
      id,
      { ...body, respondedAt: answerChanged ? now.toISOString() : undefined },
      now,
    )) as V1SocialEventRsvp;
  }

  private async requireOption(teamId: string, eventId: string, optionId: string): Promise<void> {
    const option = await rsvpOptionsTable.findById(this.deps.db, teamId, optionId);
    if (!option || option.eventId !== eventId)
      throw validationFailed([{ path: 'rsvpOptionId', message: 'Not an RSVP option of this event' }]);
  }

  /** The customer (and contact) a body names; a contact brings its customer. */
  private async guestOf(
    db: Executor,
    teamId: string,
    body: { customerId?: string | undefined; contactId?: string | undefined },
  ): Promise<{ customerId: string | null; contactId: string | null }> {
    if (body.contactId) {
      const contact = await contactsTable.findById(db, teamId, body.contactId);
      if (!contact) throw validationFailed([{ path: 'contactId', message: 'Contact not found' }]);
      if (body.customerId && body.customerId !== contact.customerId)
        throw validationFailed([{ path: 'contactId', message: 'The contact belongs to another customer' }]);
      return { customerId: contact.customerId, contactId: contact.id };
    }
    await checkReferences(db, teamId, [
      { path: 'customerId', id: body.customerId, table: customersTable, resource: 'Customer' },
    ]);
    return { customerId: body.customerId ?? null, contactId: null };
  }
}
