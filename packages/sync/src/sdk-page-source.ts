import type { VsfClient } from '@vsf/sdk';
import type { ResourceSpec } from './resources.js';
import type { FetchedPage, PageRequest, PageSource } from './source.js';

interface ListBody {
  data: Record<string, unknown>[];
  page: number;
  limit: number;
  total: number;
}

/** Pages through the SDK, so retries, timeouts and idempotency are the SDK's. */
export function sdkPageSource(client: VsfClient): PageSource {
  return {
    async fetchPage(resource: ResourceSpec, request: PageRequest): Promise<FetchedPage> {
      const query = {
        page: request.page,
        limit: request.limit,
        ...(request.updatedAfter ? { updatedAfter: request.updatedAfter } : {}),
        ...(request.includeDeleted ? { includeDeleted: true } : {}),
      };
      const { data, response } = await client.request<ListBody>(resource.endpoint, { query }).withResponse();
      const date = response.headers.get('date');
      const serverDate = date ? new Date(date) : undefined;
      if (!serverDate || Number.isNaN(serverDate.getTime())) {
        throw new Error(`${resource.name}: the server sent no valid Date header; a sync needs the server's clock`);
      }
      return { records: data.data, page: data.page, limit: data.limit, total: data.total, serverDate };
    },
  };
}
