import type { CalendarEntry, EndpointQuery, getMarketingCalendar } from '@vsf/contract';
import type { Knex } from 'knex';
import type { AuthContext } from './auth-service.js';
import type { ServiceDeps } from './service-deps.js';

const iso = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();

/** Merges what marketing has planned in a window; each kind only for keys whose scopes cover it. */
export class MarketingCalendarService {
  constructor(private readonly deps: ServiceDeps) {}

  async entries(auth: AuthContext, query: EndpointQuery<typeof getMarketingCalendar>): Promise<CalendarEntry[]> {
    const from = new Date(query.from);
    const to = new Date(query.to);
    const entries: CalendarEntry[] = [];
    if (auth.scopes.has('read:campaigns')) {
      entries.push(...(await this.contentSteps(auth.teamId, from, to)));
      entries.push(...(await this.socialPosts(auth.teamId, from, to)));
    }
    if (auth.scopes.has('read:social-events')) entries.push(...(await this.socialEvents(auth.teamId, from, to)));
    return entries.sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
  }

  /** The team's rows of `table` (as `alias`) placed in [from, to) by `at`, a column (`db.ref`) or an expression. */
  private placedIn(table: string, alias: string, at: Knex.Raw, teamId: string, from: Date, to: Date) {
    return this.deps
      .db(`${table} as ${alias}`)
      .where(`${alias}.team_id`, teamId)
      .where(at, '>=', from)
      .where(at, '<', to);
  }

  private async contentSteps(teamId: string, from: Date, to: Date): Promise<CalendarEntry[]> {
    const at = this.deps.db.ref('s.scheduled_at');
    const rows = (await this.placedIn('campaign_content_steps', 's', at, teamId, from, to)
      .leftJoin('campaign_sends as send', 'send.content_step_id', 's.id')
      .select('s.id', 's.name', 's.scheduled_at', 's.campaign_id', 'send.id as send_id')) as Record<string, unknown>[];
    return rows.map((r) => ({
      kind: 'content_step',
      id: String(r.id),
      title: String(r.name),
      at: iso(r.scheduled_at),
      endsAt: null,
      campaignId: String(r.campaign_id),
      status: r.send_id ? 'sent' : 'scheduled',
    }));
  }

  /** A post is placed at its publication time, or its scheduled time until published. */
  private async socialPosts(teamId: string, from: Date, to: Date): Promise<CalendarEntry[]> {
    const at = this.deps.db.raw('coalesce(p.published_at, p.scheduled_at)');
    const rows = (await this.placedIn('social_posts', 'p', at, teamId, from, to).select('p.id', 'p.body', 'p.status', {
      at,
    })) as Record<string, unknown>[];
    return rows.map((r) => ({
      kind: 'social_post',
      id: String(r.id),
      title: firstLine(String(r.body)),
      at: iso(r.at),
      endsAt: null,
      campaignId: null,
      status: String(r.status),
    }));
  }

  /** Like everything on the calendar, an event is placed at its start. */
  private async socialEvents(teamId: string, from: Date, to: Date): Promise<CalendarEntry[]> {
    const at = this.deps.db.ref('e.starts_at');
    const rows = (await this.placedIn('social_events', 'e', at, teamId, from, to).select(
      'e.id',
      'e.name',
      'e.status',
      'e.starts_at',
      'e.ends_at',
    )) as Record<string, unknown>[];
    return rows.map((r) => ({
      kind: 'social_event',
      id: String(r.id),
      title: String(r.name),
      at: iso(r.starts_at),
      endsAt: r.ends_at ? iso(r.ends_at) : null,
      campaignId: null,
      status: String(r.status),
    }));
  }
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]?.trim() ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
