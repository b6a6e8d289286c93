import type { ResourceSpec } from './resources.js';

export interface PageRequest {
  page: number;
  limit: number;
  updatedAfter?: string | undefined;
  includeDeleted?: boolean | undefined;
}

export interface FetchedPage {
  records: Record<string, unknown>[];
  page: number;
  limit: number;
  total: number;
  /** The server's clock when it answered (its `Date` header): the only clock a sync trusts. */
  serverDate: Date;
}

/** Where pages come from; the SDK adapter is the real one, tests plug in fakes of a spec-only server. */
export interface PageSource {
  fetchPage(resource: ResourceSpec, request: PageRequest): Promise<FetchedPage>;
}
