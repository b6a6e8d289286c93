import type { CalendarEntry, EndpointQuery, getMarketingCalendar } from '@vsf/contract';
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
    if (auth.scopes.has('read:campaigns')) entries.push(...(await this.contentSteps(auth.teamId, from, to)));
    return entries.sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
  }

  private async contentSteps(teamId: string, from: Date, to: Date): Promise<CalendarEntry[]> {
    const rows = (await this.deps
      .db('campaign_content_steps as s')
      .leftJoin('campaign_sends as send', 'send.content_step_id', 's.id')
      .where('s.team_id', teamId)
      .where('s.scheduled_at', '>=', from)
      .where('s.scheduled_at', '<', to)
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
}
