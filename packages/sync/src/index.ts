export * from './engine.js';
export * from './errors.js';
export { type AppliedPage, FEED_PAGE_SIZE } from './feed/drain-feed.js';
export { DEFAULT_POLL_INTERVAL_MS, FOLLOW_WAIT_SECONDS, type FollowOptions, follow } from './feed/follow.js';
export { isoTime } from './iso-time.js';
export { SyncTeamMismatchError } from './mirror-team.js';
export * from './resources.js';
export {
  DEFAULT_MAX_DELAY_MS,
  DEFAULT_MAX_RETRIES,
  type RetryOptions,
  type RetrySummary,
  type StopReason,
  SyncAbortedError,
} from './retry/run-retries.js';
export * from './sdk-page-source.js';
export * from './sinks/jsonl-sink.js';
export * from './sinks/open-sink.js';
export * from './sinks/sink.js';
export * from './sinks/sql-sink.js';
export * from './source.js';
export * from './verify/verify.js';
