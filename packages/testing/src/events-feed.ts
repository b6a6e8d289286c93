import { type EventsPage, firstMissingScope } from '@vsf/contract';
import { MockHttpError } from './mock-errors.js';
import type { OperationContext } from './standard-operations.js';

const resync = 'resync the records, then follow from the nextCursor of GET /events?limit=0';

/**
 * `GET /events` (the `events` extension) over the team's writes: in order, each shown as `GET` shows its
 * record, only of resources the key can read; `wait` long-polls for the next event (in real time).
 */
export async function listEvents(ctx: OperationContext): Promise<EventsPage> {
  const { after: asked, limit, wait } = ctx.query as { after?: number; limit: number; wait: number };
  const team = ctx.team;
  if (asked !== undefined && asked > team.lastCursor) {
    throw new MockHttpError(
      410,
      'gone',
      `Cursor ${asked} is past the end of this team's feed (its last is ${team.lastCursor}): it belongs to another team or to a database since reset; ${resync}`,
    );
  }
  const after = asked ?? 0;
  if (limit === 0) return { data: [], nextCursor: Math.max(after, team.lastCursor), hasMore: false };
  const readable = (resourceScopes: Parameters<typeof firstMissingScope>[1] | undefined) =>
    resourceScopes !== undefined && firstMissingScope(ctx.key.scopes, resourceScopes) === undefined;
  const page = () => {
    const next = team.feed.filter((e) => e.event.cursor > after);
    const shown = next.slice(0, limit);
    const hasMore = next.length > limit;
    return {
      data: shown.filter((e) => readable(e.resource.readScopes)).map((e) => structuredClone(e.event)),
      nextCursor: hasMore ? (shown.at(-1)?.event.cursor ?? after) : Math.max(after, team.lastCursor),
      hasMore,
    };
  };
  let answer = page();
  const deadline = Date.now() + wait * 1000;
  // Events of resources the key cannot read move the cursor but wake nobody: wait on past them.
  while (answer.data.length === 0 && !answer.hasMore && Date.now() < deadline && !ctx.signal?.aborted) {
    await team.waitForEvent(answer.nextCursor, deadline - Date.now(), ctx.signal);
    answer = page();
  }
  return answer;
}
