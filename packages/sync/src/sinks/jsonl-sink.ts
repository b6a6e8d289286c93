import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { isoTime } from '../iso-time.js';
import type { ResourceSpec } from '../resources.js';
import { heldByDeadProcess, lockedBy, lockHolder, type StoredLock, thisProcessLock } from './lock-holder.js';
import type { Checkpoint, LockHolder, ResourceChanges, ResourceState, Sink } from './sink.js';

interface ResourceFile {
  state: ResourceState;
  /** id → [updatedAt, runId last seen]: what the log has, so only changes are appended. */
  index: Record<string, [string | null, string]>;
}

/**
 * An append-only change log per resource (`<resource>.jsonl`, one `{op, id, record?, syncedAt}` line
 * per change) for pipelines. The index and state are rewritten atomically (temp file + rename) after
 * the page's lines are appended, so a crash can repeat lines but never lose one.
 */
/** Where an id's latest line is in the log: byte offset, byte length, its record's `updatedAt`. */
type LogEntry = [start: number, length: number, updatedAt: string];

export class JsonlSink implements Sink {
  readonly kind = 'jsonl';
  private locked = false;
  /** Per resource, built on first read and dropped on every write. */
  private readonly logIndexes = new Map<string, Map<string, LogEntry>>();

  constructor(private readonly dir: string) {}

  private file(resource: ResourceSpec, suffix: string) {
    return join(this.dir, `${resource.name}${suffix}`);
  }

  private load(resource: ResourceSpec): ResourceFile {
    const path = this.file(resource, '.state.json');
    if (!existsSync(path)) return { state: { watermark: null, checkpoint: null }, index: {} };
    return JSON.parse(readFileSync(path, 'utf8')) as ResourceFile;
  }

  private save(resource: ResourceSpec, data: ResourceFile): void {
    const path = this.file(resource, '.state.json');
    writeFileSync(`${path}.tmp`, JSON.stringify(data));
    renameSync(`${path}.tmp`, path);
  }

  async prepare(): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
  }

  async lock(owner: string): Promise<void> {
    const path = this.lockFile();
    try {
      const fd = openSync(path, 'wx');
      const { pid, host, since } = thisProcessLock(owner);
      writeFileSync(fd, JSON.stringify({ owner, pid, host, at: since }));
      closeSync(fd);
      this.locked = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = this.storedLock();
      if (heldByDeadProcess(holder)) {
        unlinkSync(path);
        return this.lock(owner);
      }
      throw lockedBy(holder, `; lock file ${path}`);
    }
  }

  async unlock(): Promise<void> {
    if (!this.locked) return;
    unlinkSync(this.lockFile());
    this.locked = false;
  }

  async lockHolder(): Promise<LockHolder | null> {
    return existsSync(this.lockFile()) ? lockHolder(this.storedLock()) : null;
  }

  private lockFile(): string {
    return join(this.dir, '.lock');
  }

  /** The lock file's holder (written as `at`; runs before owners were recorded wrote none). */
  private storedLock(): StoredLock {
    const held = JSON.parse(readFileSync(this.lockFile(), 'utf8')) as {
      owner?: string;
      pid: number;
      host: string;
      at: string;
    };
    return { owner: held.owner ?? 'vsf sync', pid: held.pid, host: held.host, since: held.at };
  }

  async getState(resource: ResourceSpec): Promise<ResourceState> {
    const path = this.file(resource, '.state.json');
    // The state file is rewritten with every change of the resource: its time is when it last changed.
    const updatedAt = existsSync(path) ? isoTime(statSync(path).mtime) : null;
    return { ...this.load(resource).state, updatedAt };
  }

  async applyPage(resource: ResourceSpec, records: Record<string, unknown>[], checkpoint: Checkpoint) {
    const data = this.load(resource);
    const now = isoTime();
    const lines: string[] = [];
    for (const record of records) {
      const id = String(record.id);
      const updatedAt = (record.updatedAt as string | null | undefined) ?? null;
      const known = data.index[id];
      const changed = !known || known[0] === null || updatedAt === null || Date.parse(updatedAt) > Date.parse(known[0]);
      if (changed) lines.push(JSON.stringify({ op: 'upsert', id, record, syncedAt: now }));
      const kept = known && !changed ? known[0] : updatedAt;
      data.index[id] = [kept, checkpoint.runId];
    }
    if (lines.length > 0) appendFileSync(this.file(resource, '.jsonl'), `${lines.join('\n')}\n`);
    this.logIndexes.delete(resource.name);
    data.state = { ...data.state, checkpoint };
    this.save(resource, data);
    return { upserted: lines.length };
  }

  async resetCheckpoint(resource: ResourceSpec): Promise<void> {
    const data = this.load(resource);
    data.state.checkpoint = null;
    this.save(resource, data);
  }

  async completeRun(
    resource: ResourceSpec,
    run: { runId: string; watermark: string; prune: boolean; feedCursor?: number | undefined },
  ) {
    const data = this.load(resource);
    let deleted = 0;
    if (run.prune) {
      const now = isoTime();
      const gone = Object.entries(data.index).filter(([, [, seen]]) => seen !== run.runId);
      if (gone.length > 0) {
        appendFileSync(
          this.file(resource, '.jsonl'),
          `${gone.map(([id]) => JSON.stringify({ op: 'delete', id, syncedAt: now })).join('\n')}\n`,
        );
        for (const [id] of gone) delete data.index[id];
        this.logIndexes.delete(resource.name);
        deleted = gone.length;
      }
    }
    data.state = {
      watermark: run.watermark,
      checkpoint: null,
      feedCursor: run.feedCursor ?? data.state.feedCursor ?? null,
    };
    this.save(resource, data);
    return { deleted };
  }

  /**
   * Per resource: the page's lines appended, then its index and cursor saved. Not one transaction across
   * files: a crash between two resources leaves the second at its older cursor, and it applies those
   * events again on the next run (a repeated line, as for pages; never a lost one).
   */
  async applyChanges(changes: readonly ResourceChanges[], position: { cursor: number; watermark: string | null }) {
    const now = isoTime();
    let upserted = 0;
    let deleted = 0;
    for (const { resource, upserts, deletes } of changes) {
      const data = this.load(resource);
      const lines: string[] = [];
      let removed = 0;
      for (const record of upserts) {
        const id = String(record.id);
        const updatedAt = (record.updatedAt as string | null | undefined) ?? null;
        const known = data.index[id];
        if (known && known[0] !== null && updatedAt !== null && Date.parse(updatedAt) < Date.parse(known[0])) continue;
        lines.push(JSON.stringify({ op: 'upsert', id, record, syncedAt: now }));
        data.index[id] = [updatedAt, known?.[1] ?? `events:${position.cursor}`];
      }
      for (const id of deletes) {
        if (!data.index[id]) continue;
        lines.push(JSON.stringify({ op: 'delete', id, syncedAt: now }));
        delete data.index[id];
        removed++;
      }
      upserted += lines.length - removed;
      deleted += removed;
      if (lines.length > 0) appendFileSync(this.file(resource, '.jsonl'), `${lines.join('\n')}\n`);
      this.logIndexes.delete(resource.name);
      data.state = {
        watermark: position.watermark ?? data.state.watermark,
        checkpoint: data.state.checkpoint,
        feedCursor: Math.max(position.cursor, data.state.feedCursor ?? 0),
      };
      this.save(resource, data);
    }
    return { upserted, deleted };
  }

  /** The log folded to its latest state per id. */
  async readAll(resource: ResourceSpec): Promise<Record<string, unknown>[]> {
    const path = this.file(resource, '.jsonl');
    if (!existsSync(path)) return [];
    const latest = new Map<string, Record<string, unknown>>();
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line) continue;
      const entry = JSON.parse(line) as { op: string; id: string; record?: Record<string, unknown> };
      if (entry.op === 'delete') latest.delete(entry.id);
      else if (entry.record) {
        const current = latest.get(entry.id);
        if (!current || String(entry.record.updatedAt ?? '') >= String(current.updatedAt ?? ''))
          latest.set(entry.id, entry.record);
      }
    }
    return [...latest.values()].sort((a, b) => String(a.id).localeCompare(String(b.id)));
  }

  async hasMirror(resource: ResourceSpec): Promise<boolean> {
    return existsSync(this.file(resource, '.state.json')) || existsSync(this.file(resource, '.jsonl'));
  }

  async countRows(resource: ResourceSpec): Promise<number> {
    return this.logIndex(resource).size;
  }

  async readByIds(resource: ResourceSpec, ids: string[]): Promise<Record<string, unknown>[]> {
    const index = this.logIndex(resource);
    const wanted = ids.map((id) => index.get(id)).filter((entry): entry is LogEntry => entry !== undefined);
    if (wanted.length === 0) return [];
    const fd = openSync(this.file(resource, '.jsonl'), 'r');
    try {
      return wanted.map(([start, length]) => {
        const line = Buffer.alloc(length);
        readSync(fd, line, 0, length, start);
        return (JSON.parse(line.toString('utf8')) as { record: Record<string, unknown> }).record;
      });
    } finally {
      closeSync(fd);
    }
  }

  async idsAfter(resource: ResourceSpec, after: string | null, limit: number): Promise<string[]> {
    const ids = [...this.logIndex(resource).keys()].sort();
    const from = after === null ? 0 : ids.findIndex((id) => id > after);
    return from === -1 ? [] : ids.slice(from, from + limit);
  }

  /**
   * Id -> where its latest record is in the log, folded as `readAll` folds it, in one pass over the log
   * read 1 MiB at a time: records stay on disk and are read back by offset, so only the positions are
   * held in memory. A last line without its newline (a crash mid-append) is left out, as the next run
   * writes it again.
   */
  private logIndex(resource: ResourceSpec): Map<string, LogEntry> {
    const cached = this.logIndexes.get(resource.name);
    if (cached) return cached;
    const index = new Map<string, LogEntry>();
    const path = this.file(resource, '.jsonl');
    if (existsSync(path)) {
      const fd = openSync(path, 'r');
      try {
        const chunk = Buffer.alloc(1 << 20);
        let carry = Buffer.alloc(0);
        let carryStart = 0;
        for (let position = 0; ; ) {
          const read = readSync(fd, chunk, 0, chunk.length, position);
          if (read === 0) break;
          position += read;
          const buffer = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read);
          let lineStart = 0;
          for (let end = buffer.indexOf(10); end !== -1; end = buffer.indexOf(10, lineStart)) {
            if (end > lineStart) this.indexLine(index, buffer.subarray(lineStart, end), carryStart + lineStart);
            lineStart = end + 1;
          }
          carry = Buffer.from(buffer.subarray(lineStart));
          carryStart += lineStart;
        }
      } finally {
        closeSync(fd);
      }
    }
    this.logIndexes.set(resource.name, index);
    return index;
  }

  private indexLine(index: Map<string, LogEntry>, line: Buffer, start: number): void {
    const entry = JSON.parse(line.toString('utf8')) as { op: string; id: string; record?: { updatedAt?: unknown } };
    if (entry.op === 'delete') {
      index.delete(entry.id);
      return;
    }
    const updatedAt = String(entry.record?.updatedAt ?? '');
    const current = index.get(entry.id);
    if (!current || updatedAt >= current[2]) index.set(entry.id, [start, line.length, updatedAt]);
  }

  async close(): Promise<void> {
    await this.unlock();
  }
}
