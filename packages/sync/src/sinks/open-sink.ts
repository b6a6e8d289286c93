import { SyncUsageError } from '../errors.js';
import { JsonlSink } from './jsonl-sink.js';
import type { Sink } from './sink.js';
import { SqlSink } from './sql-sink.js';

export const DEFAULT_SINK_URL = 'sqlite:./vsf-mirror.db';

/** A bare path with one of these endings is an SQLite file, as people name them. */
const SQLITE_FILE = /\.(db|sqlite|sqlite3)$/i;

/** `sqlite:<file>` (or a path ending `.db`, `.sqlite`, `.sqlite3`), `postgres://…` / `postgresql://…`, or `jsonl:<dir>`. */
export function openSink(url: string = DEFAULT_SINK_URL): Sink {
  if (url.startsWith('sqlite:'))
    return SqlSink.sqlite(url.slice('sqlite:'.length).replace(/^\/\//, '') || 'vsf-mirror.db');
  if (/^postgres(ql)?:\/\//.test(url)) return SqlSink.postgres(url);
  if (url.startsWith('jsonl:')) return new JsonlSink(url.slice('jsonl:'.length).replace(/^\/\//, '') || 'vsf-mirror');
  if (SQLITE_FILE.test(url) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return SqlSink.sqlite(url);
  throw new SyncUsageError(
    `Unknown mirror "${url}": use sqlite:<file> (or a file name ending .db, .sqlite or .sqlite3), postgres://… or jsonl:<dir>`,
  );
}
