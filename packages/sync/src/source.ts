import type { ResourceSpec } from './resources.js';

export interface PageRequest {
  page: number;
  limit: number;
  updatedAfter?: string | undefined;
  includeDeleted?: boolean | undefined;
  /** For a nested list (`ResourceSpec.parent`): the id of the record it is nested under (a car's). */
  parentId?: string | undefined;
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
  /** The events feed, where the source can read one; a sync uses it only once the server announced it. */
  readonly feed?: FeedSource | undefined;
}

/** One change from the server's events feed (the `events` extension), as much of it as a mirror needs. */
export interface FeedEvent {
  cursor: number;
  /** The record's kind (`car`, `parking_zone`): a resource's `event`. */
  resource: string;
  recordId: string;
  /** The record as the change wrote it; null for a hard delete. */
  data: Record<string, unknown> | null;
  /** When the server recorded the change (ISO): how far behind a follower is. */
  createdAt: string;
}

export interface FeedPage {
  events: FeedEvent[];
  nextCursor: number;
  hasMore: boolean;
  serverDate: Date;
}

export interface FeedRequest {
  /** Only events after this cursor; the feed's oldest kept without it. */
  after?: number | undefined;
  /** 0 reads no event: its `nextCursor` is the feed's current end. */
  limit: number;
  /** Long poll: seconds to wait for the next event when none follows `after`. */
  wait?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** A server's events feed, used only when the server announces it. */
export interface FeedSource {
  /** Whether the server announces the feed; one cheap list request finds out when nothing was heard yet. */
  announced(probe: ResourceSpec, signal?: AbortSignal): Promise<boolean>;
  /** Fails with FeedCursorGoneError when `after` is older than the server keeps. */
  fetchEvents(request: FeedRequest): Promise<FeedPage>;
}

/** The server no longer keeps the events after the mirror's cursor (410): only a full run can catch up. */
export class FeedCursorGoneError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedCursorGoneError';
  }
}
