import type { ResourceSpec } from './resources.js';

export interface PageRequest {
  page: number;
  limit: number;
  updatedAfter?: string | undefined;
  includeDeleted?: boolean | undefined;
  /** Only these records (the spec's `ids` filter, up to 200); unknown ids are simply absent. */
  ids?: string[] | undefined;
  /** Aborted when the run is stopped; a source should give up the request. */
  signal?: AbortSignal | undefined;
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
  /** Where the pages come from (`http://…/api/v1`), for messages. */
  readonly url?: string | undefined;
  fetchPage(resource: ResourceSpec, request: PageRequest): Promise<FetchedPage>;
}
