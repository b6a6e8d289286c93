export * from './engine.js';
export * from './resources.js';
export * from './sdk-page-source.js';
export * from './sinks/jsonl-sink.js';
export * from './sinks/open-sink.js';
export * from './sinks/sink.js';
export * from './sinks/sql-sink.js';
export * from './source.js';
