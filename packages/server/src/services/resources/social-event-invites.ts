import type { createSocialEventInvite, EndpointBody, V1SocialEventInvite } from '@vsf/contract';
import { validationFailed } from '../../errors/api-http-error.js';
import type { ServiceDeps } from '../service-deps.js';
import { TeamResource } from '../standard/team-resource.js';
import { guestOf } from './event-guest.js';

/** An event's invites: each names a customer, directly or through one of its contacts. */
export class SocialEventInvites extends TeamResource<V1SocialEventInvite> {
  constructor(deps: ServiceDeps) {
    super(deps, 'marketing.socialEvents.invites', {
      defaults: { note: null },
      conflicts: {
        duplicate: 'Already invited to this event',
      },
    });
  }

  override async create(teamId: string, eventId: unknown, payload: unknown): Promise<V1SocialEventInvite> {
    const body = payload as EndpointBody<typeof createSocialEventInvite>;
    await this.parents(teamId, [eventId]);
    const guest = await guestOf(this.deps.db, teamId, body);
    if (!guest.customerId) throw validationFailed([{ path: 'customerId', message: 'Send customerId or contactId' }]);
    return super.create(teamId, eventId, { note: body.note, ...guest });
  }
}
