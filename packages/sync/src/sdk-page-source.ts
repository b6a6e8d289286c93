import type { VsfClient } from '@vsf/sdk';
import type { ResourceSpec } from './resources.js';
import {
  FeedCursorGoneError,
  type FeedPage,
  type FeedRequest,
  type FetchedPage,
  type PageRequest,
  type PageSource,
} from './source.js';

/** The extension a server names in `Vsf-Extensions` when it serves `GET /events`. */
const EVENTS_EXTENSION = 'events';

interface ListBody {
  data: Record<string, unknown>[];
  page: number;
  limit: number;
  total: number;
}

/**
 * Pages through the SDK (auth, timeouts, typed errors). The SDK's own retries are turned off for page
 * requests: the sync's run-wide retry budget (`SyncOptions.retry`) decides, so it can count them and
 * stop a run whose server is down instead of retrying each resource in turn.
 */
export function sdkPageSource(client: VsfClient): PageSource {
  const source: PageSource = {
    url: client.baseUrl,
    feed: {
      async announced(probe, signal) {
        // Every response names the server's extensions; a spec-only server names none, and is asked once per run.
        if (!client.serverExtensions.has(EVENTS_EXTENSION))
          await source.fetchPage(probe, { page: 1, limit: 1, signal });
        return client.serverExtensions.has(EVENTS_EXTENSION);
      },
      async fetchEvents(request: FeedRequest): Promise<FeedPage> {
        const query = {
          limit: request.limit,
          wait: request.wait ?? 0,
          ...(request.after === undefined ? {} : { after: request.after }),
        };
        try {
          const { data, response } = await client.events
            // A long poll must not outlive its own timeout.
            .list(query, { maxRetries: 0, signal: request.signal, timeout: (query.wait + 15) * 1000 })
            .withResponse();
          return {
            events: data.data,
            nextCursor: data.nextCursor,
            hasMore: data.hasMore,
            serverDate: serverDateOf(response, 'events'),
          };
        } catch (error) {
          if ((error as { status?: number }).status === 410) throw new FeedCursorGoneError(cursorGoneMessage(error));
          throw error;
        }
      },
    },
    async fetchPage(resource: ResourceSpec, request: PageRequest): Promise<FetchedPage> {
      const query = {
        page: request.page,
        limit: request.limit,
        ...(request.updatedAfter ? { updatedAfter: request.updatedAfter } : {}),
        ...(request.includeDeleted ? { includeDeleted: true } : {}),
        ...(request.ids ? { ids: request.ids } : {}),
      };
      const { parent } = resource;
      if (parent && request.parentId === undefined)
        throw new Error(`${resource.name} is listed per ${parent.param}: the request names none`);
      const params = parent ? { [parent.param]: request.parentId as string } : undefined;
      const { data, response } = await client
        .request<ListBody>(resource.route, { params, query }, { maxRetries: 0, signal: request.signal })
        .withResponse();
      return {
        records: data.data,
        page: data.page,
        limit: data.limit,
        total: data.total,
        serverDate: serverDateOf(response, resource.name),
      };
    },
  };
  return source;
}

function serverDateOf(response: Response, what: string): Date {
  const date = response.headers.get('date');
  const serverDate = date ? new Date(date) : undefined;
  if (!serverDate || Number.isNaN(serverDate.getTime())) {
    throw new Error(`${what}: the server sent no valid Date header; a sync needs the server's clock`);
  }
  return serverDate;
}

/**
 * A 410 of the feed in words for whoever reads the sync's output: the server's own message names API
 * requests (`GET /events?limit=0`) a person running `vsf sync` cannot act on.
 */
function cursorGoneMessage(error: unknown): string {
  const ahead = /past the end/i.test((error as Error).message);
  return ahead
    ? 'the server has fewer changes than this mirror has already applied: the mirror was made with another team’s key or before the server’s database was reset'
    : 'the server no longer keeps the changes made since this mirror’s last sync (it keeps 30 days unless configured otherwise)';
}
