import { JsonlSink } from './jsonl-sink.js';
import type { Sink } from './sink.js';
import { SqlSink } from './sql-sink.js';

export const DEFAULT_SINK_URL = 'sqlite:./vsf-mirror.db';

/** `sqlite:<file>`, `postgres://…` / `postgresql://…`, or `jsonl:<dir>`. */
export function openSink(url: string = DEFAULT_SINK_URL): Sink {
  if (url.startsWith('sqlite:'))
    return SqlSink.sqlite(url.slice('sqlite:'.length).replace(/^\/\//, '') || 'vsf-mirror.db');
  if (/^postgres(ql)?:\/\//.test(url)) return SqlSink.postgres(url);
  if (url.startsWith('jsonl:')) return new JsonlSink(url.slice('jsonl:'.length).replace(/^\/\//, '') || 'vsf-mirror');
  throw new Error(`Unknown sink "${url}": use sqlite:<file>, postgres://… or jsonl:<dir>`);
}
