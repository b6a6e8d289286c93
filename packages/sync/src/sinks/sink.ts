import type { ResourceSpec } from '../resources.js';

export type SyncMode = 'full' | 'incremental';

/** Progress of an unfinished run, saved with each page so a killed run resumes where it stopped. */
export interface Checkpoint {
  runId: string;
  mode: SyncMode;
  /** Server time of the run's first page: becomes the watermark when the run completes. */
  startedAt: string;
  nextPage: number;
  updatedAfter: string | null;
  /** `total` of the first page; a smaller total later means a hard delete may have hidden a record. */
  firstTotal: number;
}

export interface ResourceState {
  /** Server start time of the last completed run. */
  watermark: string | null;
  checkpoint: Checkpoint | null;
  /**
   * Where this resource follows the server's events feed from (the `events` extension): every change up
   * to this cursor is in the mirror. Null until a run against a server announcing the feed set it.
   */
  feedCursor?: number | null | undefined;
  /** When this resource's state last changed, on this machine's clock: a page, a completed run, feed changes. */
  updatedAt?: string | null | undefined;
}

/** The run holding a sink's lock, as `vsf sync status` shows it. */
export interface LockHolder {
  owner: string;
  pid: number;
  host: string;
  /** When it took the lock (ISO). */
  since: string;
  /** Its process is gone from this machine (killed): the next run takes the lock over. */
  stale: boolean;
}

/** One resource's share of a page of the events feed: records as written, and ids hard-deleted. */
export interface ResourceChanges {
  resource: ResourceSpec;
  upserts: Record<string, unknown>[];
  deletes: string[];
}

/** Reads a mirror a page at a time without changing it: what `verify` compares with the server. */
export interface MirrorReader {
  /** False until a sync has created this resource's mirror. */
  hasMirror(resource: ResourceSpec): Promise<boolean>;
  countRows(resource: ResourceSpec): Promise<number>;
  /** The mirrored rows among `ids`, as API records (any order; absent ids are left out). */
  readByIds(resource: ResourceSpec, ids: string[]): Promise<Record<string, unknown>[]>;
  /** Up to `limit` mirrored ids after `after` (all when null), ascending: one keyset page. */
  idsAfter(resource: ResourceSpec, after: string | null, limit: number): Promise<string[]>;
}

/** Where a mirror lives. Every write of a page and its checkpoint is atomic. */
export interface Sink extends MirrorReader {
  readonly kind: string;
  /** Creates or migrates the tables of these resources and the state table. */
  prepare(resources: ResourceSpec[]): Promise<void>;
  /** Fails with SyncLockedError while another run holds the sink. */
  lock(owner: string): Promise<void>;
  unlock(): Promise<void>;
  /** Who holds the lock, without taking it; null when no run does (or the mirror was never made). */
  lockHolder(): Promise<LockHolder | null>;
  getState(resource: ResourceSpec): Promise<ResourceState>;
  /**
   * Upserts the records (a record replaces the stored one only when its `updatedAt` is not older),
   * marks them seen by the run, and saves the checkpoint, in one transaction.
   */
  applyPage(
    resource: ResourceSpec,
    records: Record<string, unknown>[],
    checkpoint: Checkpoint,
  ): Promise<{ upserted: number }>;
  /** Drops the checkpoint of an abandoned attempt (a run being redone). */
  resetCheckpoint(resource: ResourceSpec): Promise<void>;
  /**
   * Moves the watermark, clears the checkpoint and, with `prune`, removes rows the run did not see;
   * `feedCursor`, when given, becomes where the resource follows the events feed from.
   */
  completeRun(
    resource: ResourceSpec,
    run: { runId: string; watermark: string; prune: boolean; feedCursor?: number | undefined },
  ): Promise<{ deleted: number }>;
  /**
   * Applies a page of the events feed: upserts (newer `updatedAt` wins, as for pages) and hard deletes,
   * and moves each listed resource's feed cursor to `cursor` (and its watermark, when given), all in one
   * transaction where the sink has them, so a change and the cursor past it are never apart.
   */
  applyChanges(
    changes: readonly ResourceChanges[],
    position: { cursor: number; watermark: string | null },
  ): Promise<{ upserted: number; deleted: number }>;
  /** Every mirrored row of a resource, as API records (tests and exports). */
  readAll(resource: ResourceSpec): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export class SyncLockedError extends Error {
  constructor(detail: string) {
    super(`Another sync is running on this mirror (${detail}); wait for it to finish, or remove a stale lock`);
    this.name = 'SyncLockedError';
  }
}
