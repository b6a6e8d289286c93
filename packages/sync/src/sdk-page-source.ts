import type { VsfClient } from '@vsf/sdk';
import type { ResourceSpec } from './resources.js';
import type { FetchedPage, PageRequest, PageSource } from './source.js';

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
  return {
    url: client.baseUrl,
    async fetchPage(resource: ResourceSpec, request: PageRequest): Promise<FetchedPage> {
      const query = {
        page: request.page,
        limit: request.limit,
        ...(request.updatedAfter ? { updatedAfter: request.updatedAfter } : {}),
        ...(request.includeDeleted ? { includeDeleted: true } : {}),
        ...(request.ids ? { ids: request.ids } : {}),
      };
      const { data, response } = await client
        .request<ListBody>(resource.route, { query }, { maxRetries: 0, signal: request.signal })
        .withResponse();
      const date = response.headers.get('date');
      const serverDate = date ? new Date(date) : undefined;
      if (!serverDate || Number.isNaN(serverDate.getTime())) {
        throw new Error(`${resource.name}: the server sent no valid Date header; a sync needs the server's clock`);
      }
      return { records: data.data, page: data.page, limit: data.limit, total: data.total, serverDate };
    },
  };
}
