import type { EndpointBody, updateSocialEvent, V1SocialEvent } from '@vsf/contract';
import { validationFailed } from '../../errors/api-http-error.js';
import { invitesTable, rsvpOptionsTable, rsvpsTable, socialEventsTable } from '../../repositories/tables.js';
import type { ServiceDeps } from '../service-deps.js';
import { compareTime } from '../standard/list-filters.js';
import { type Body, TeamResource } from '../standard/team-resource.js';

const iso = (value: unknown) => (typeof value === 'string' ? new Date(value).toISOString() : undefined);

/** Times are stored as sent, normalized to UTC; `endsAt: null` clears the end. */
const writeTimes = (body: Body) => ({
  ...body,
  startsAt: iso(body.startsAt),
  endsAt: body.endsAt === null ? null : iso(body.endsAt),
});

/** Social events; deleting one takes its RSVPs, invites and options with it. */
export class SocialEvents extends TeamResource<V1SocialEvent> {
  constructor(deps: ServiceDeps) {
    super(deps, 'marketing.socialEvents', {
      defaults: { description: null, endsAt: null, locationId: null, venue: null, capacity: null, status: 'scheduled' },
      write: writeTimes,
      filters: {
        // An event still going on at `from` counts, as the calendar shows it.
        from: (q, value, column) => {
          if (value)
            q.whereRaw(`coalesce(${column('endsAt')}, ${column('startsAt')}) >= ?`, [new Date(value as string)]);
        },
        to: compareTime('startsAt', '<'),
      },
    });
  }

  override async update(teamId: string, eventId: unknown, payload: unknown): Promise<V1SocialEvent> {
    const body = payload as EndpointBody<typeof updateSocialEvent>;
    const current = await this.get(teamId, eventId as string);
    const { startsAt, endsAt } = writeTimes(body);
    const nextEnd = endsAt === undefined ? current.endsAt : endsAt;
    if (nextEnd && Date.parse(nextEnd) <= Date.parse(startsAt ?? current.startsAt))
      throw validationFailed([{ path: 'endsAt', message: 'endsAt must be after startsAt' }]);
    return super.update(teamId, eventId, body);
  }

  /** The event and all its staff data (RSVPs, invites, options), all or nothing. */
  override async delete(teamId: string, id: string) {
    await this.deps.db.transaction(async (trx) => {
      await this.findRow(teamId, [id], trx, { forUpdate: true });
      // Children first: RSVPs point at invites and options.
      for (const table of [rsvpsTable, invitesTable, rsvpOptionsTable]) {
        await table.scoped(trx, teamId).where(table.column('eventId'), id).delete();
      }
      await socialEventsTable.delete(trx, teamId, id);
    });
    return { id, deleted: true as const };
  }
}
