import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { ResourceSpec } from '../resources.js';
import { processAlive } from './process-alive.js';
import { type Checkpoint, type ResourceState, type Sink, SyncLockedError } from './sink.js';

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
export class JsonlSink implements Sink {
  readonly kind = 'jsonl';
  private locked = false;

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
    const path = join(this.dir, '.lock');
    try {
      const fd = openSync(path, 'wx');
      writeFileSync(fd, JSON.stringify({ owner, pid: process.pid, host: hostname(), at: new Date().toISOString() }));
      closeSync(fd);
      this.locked = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = JSON.parse(readFileSync(path, 'utf8')) as { pid: number; host: string; at: string };
      if (holder.host === hostname() && !processAlive(holder.pid)) {
        unlinkSync(path);
        return this.lock(owner);
      }
      throw new SyncLockedError(`pid ${holder.pid} on ${holder.host} since ${holder.at}; lock file ${path}`);
    }
  }

  async unlock(): Promise<void> {
    if (!this.locked) return;
    unlinkSync(join(this.dir, '.lock'));
    this.locked = false;
  }

  async getState(resource: ResourceSpec): Promise<ResourceState> {
    return this.load(resource).state;
  }

  async applyPage(resource: ResourceSpec, records: Record<string, unknown>[], checkpoint: Checkpoint) {
    const data = this.load(resource);
    const now = new Date().toISOString();
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
    data.state = { watermark: data.state.watermark, checkpoint };
    this.save(resource, data);
    return { upserted: lines.length };
  }

  async resetCheckpoint(resource: ResourceSpec): Promise<void> {
    const data = this.load(resource);
    data.state.checkpoint = null;
    this.save(resource, data);
  }

  async completeRun(resource: ResourceSpec, run: { runId: string; watermark: string; prune: boolean }) {
    const data = this.load(resource);
    let deleted = 0;
    if (run.prune) {
      const now = new Date().toISOString();
      const gone = Object.entries(data.index).filter(([, [, seen]]) => seen !== run.runId);
      if (gone.length > 0) {
        appendFileSync(
          this.file(resource, '.jsonl'),
          `${gone.map(([id]) => JSON.stringify({ op: 'delete', id, syncedAt: now })).join('\n')}\n`,
        );
        for (const [id] of gone) delete data.index[id];
        deleted = gone.length;
      }
    }
    data.state = { watermark: run.watermark, checkpoint: null };
    this.save(resource, data);
    return { deleted };
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

  async close(): Promise<void> {
    await this.unlock();
  }
}
