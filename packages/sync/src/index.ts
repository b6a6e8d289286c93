export * from './engine.js';
export * from './errors.js';
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
