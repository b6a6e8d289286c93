import type { createSocialEventRsvp, EndpointBody, updateSocialEventRsvp, V1SocialEventRsvp } from '@vsf/contract';
import { validationFailed } from '../../errors/api-http-error.js';
import { invitesTable, rsvpOptionsTable } from '../../repositories/tables.js';
import type { ServiceDeps } from '../service-deps.js';
import { TeamResource } from '../standard/team-resource.js';
import { type Guest, guestOf } from './event-guest.js';

/** An event's RSVPs: an answer (one of the event's options) from an invitee or anyone the team records. */
export class SocialEventRsvps extends TeamResource<V1SocialEventRsvp> {
  constructor(deps: ServiceDeps) {
    super(deps, 'marketing.socialEvents.rsvps', {
      defaults: { inviteId: null, name: null, email: null, guestCount: 1, note: null },
      conflicts: { duplicate: 'This invite has an RSVP already; update that one' },
    });
  }

  override async create(teamId: string, event: unknown, payload: unknown): Promise<V1SocialEventRsvp> {
    const body = payload as EndpointBody<typeof createSocialEventRsvp>;
    const eventId = event as string;
    const db = this.deps.db;
    await this.parents(teamId, [eventId]);
    await this.requireOption(teamId, eventId, body.rsvpOptionId);
    let guest: Guest;
    if (body.inviteId) {
      const invite = await invitesTable.findById(db, teamId, body.inviteId);
      if (!invite || invite.eventId !== eventId)
        throw validationFailed([{ path: 'inviteId', message: 'Not an invite of this event' }]);
      guest = { customerId: invite.customerId, contactId: invite.contactId };
    } else {
      guest = await guestOf(db, teamId, body);
    }
    const { customerId: _c, contactId: _k, ...answer } = body;
    return super.create(teamId, eventId, { ...answer, ...guest, respondedAt: this.deps.now().toISOString() });
  }

  override async update(teamId: string, event: unknown, rsvp: unknown, payload: unknown): Promise<V1SocialEventRsvp> {
    const body = payload as EndpointBody<typeof updateSocialEventRsvp>;
    const [eventId, id] = [event as string, rsvp as string];
    const current = await this.get(teamId, eventId, id);
    if (body.rsvpOptionId) await this.requireOption(teamId, eventId, body.rsvpOptionId);
    const answerChanged = body.rsvpOptionId !== undefined && body.rsvpOptionId !== current.rsvpOptionId;
    const respondedAt = answerChanged ? this.deps.now().toISOString() : undefined;
    return super.update(teamId, eventId, id, { ...body, respondedAt });
  }

  private async requireOption(teamId: string, eventId: string, optionId: string): Promise<void> {
    const option = await rsvpOptionsTable.findById(this.deps.db, teamId, optionId);
    if (!option || option.eventId !== eventId)
      throw validationFailed([{ path: 'rsvpOptionId', message: 'Not an RSVP option of this event' }]);
  }
}
