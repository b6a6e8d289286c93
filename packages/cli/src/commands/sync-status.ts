import { type LockHolder, type ResourceSpec, type Sink, selectResources } from '@vsf/sync';
import type { Command } from 'commander';
import { CliError } from '../lib/exit-codes.js';
import { columns, printJson, renderTable } from '../lib/output.js';
import { addMirrorLocationFlags, subcommandAction, syncUsage, withMirror } from '../lib/sync-flags.js';

interface StatusFlags {
  to: string;
  resources?: string[];
}

/** One resource of the mirror as `vsf sync status` shows it. */
export interface ResourceStatus {
  resource: string;
  /** False until a sync made this resource's table (or log). */
  mirrored: boolean;
  /** When its state last changed, on this machine's clock: the last page, run or feed change applied. */
  lastSync: string | null;
  /** Server time of the start of its last completed run by list: every change before it is in the mirror. */
  watermark: string | null;
  /** How the next run reads it: `feed` (the events feed, from `feedCursor`), `lists`, or `never` synced. */
  via: 'feed' | 'lists' | 'never';
  feedCursor: number | null;
  rows: number;
  /** A run by list that stopped part-way: the next `vsf sync` resumes it at `nextPage`. */
  interrupted: { mode: string; nextPage: number; startedAt: string } | null;
}

const statusColumns = columns<ResourceStatus>({
  RESOURCE: 'resource',
  VIA: 'via',
  'LAST SYNC': 'lastSync',
  WATERMARK: 'watermark',
  CURSOR: 'feedCursor',
  ROWS: (r) => (r.mirrored ? r.rows : ''),
  NOTE: (r) =>
    r.interrupted
      ? `${r.interrupted.mode} run stopped before page ${r.interrupted.nextPage}: vsf sync resumes it`
      : r.mirrored
        ? ''
        : 'never synced',
});

async function resourceStatus(sink: Sink, resource: ResourceSpec): Promise<ResourceStatus> {
  const never: ResourceStatus = {
    resource: resource.name,
    mirrored: false,
    lastSync: null,
    watermark: null,
    via: 'never',
    feedCursor: null,
    rows: 0,
    interrupted: null,
  };
  if (!(await sink.hasMirror(resource))) return never;
  const state = await sink.getState(resource);
  const checkpoint = state.checkpoint;
  return {
    ...never,
    mirrored: true,
    lastSync: state.updatedAt ?? null,
    watermark: state.watermark,
    via: state.feedCursor != null ? 'feed' : state.watermark ? 'lists' : 'never',
    feedCursor: state.feedCursor ?? null,
    rows: await sink.countRows(resource),
    interrupted: checkpoint
      ? { mode: checkpoint.mode, nextPage: checkpoint.nextPage, startedAt: checkpoint.startedAt }
      : null,
  };
}

/** `a run is in progress: vsf sync, pid 4242 on db1 since …`, or that there is none. */
function describeLock(lock: LockHolder | null): string {
  if (!lock) return 'No run in progress.';
  const who = `${lock.owner}, pid ${lock.pid} on ${lock.host}, since ${lock.since}`;
  return lock.stale
    ? `A run was killed while it held the mirror (${who}); the next vsf sync takes its lock over.`
    : `A run is in progress (${who}); another vsf sync on this mirror exits 5 until it ends.`;
}

export function registerSyncStatusCommand(sync: Command): void {
  const command = sync
    .command('status')
    .description(
      'Show the mirror without asking the server: when each resource last synced, by lists or the feed, its rows, and whether a run is in progress',
    );
  addMirrorLocationFlags(command)
    .addHelpText(
      'after',
      '\nExamples:\n  vsf sync status                     # ./vsf-mirror.db\n  vsf sync status --to jsonl:mirror --json',
    )
    .action(
      subcommandAction<StatusFlags>(async (o, globals) => {
        const resources = syncUsage(() => selectResources(o.resources));
        await withMirror(o.to, async (sink) => {
          const statuses: ResourceStatus[] = [];
          for (const resource of resources) statuses.push(await resourceStatus(sink, resource));
          const lock = await sink.lockHolder();
          if (!lock && !statuses.some((s) => s.mirrored)) {
            throw new CliError(`There is no mirror at ${o.to} yet: \`vsf sync --to ${o.to}\` makes it`);
          }
          if (globals.json) {
            printJson({ to: o.to, running: Boolean(lock && !lock.stale), lock, resources: statuses });
            return;
          }
          // Whether a run holds the mirror is part of the answer, not a note: stdout, with the table.
          process.stdout.write(`${renderTable(statuses, statusColumns)}${describeLock(lock)}\n`);
        });
      }),
    );
}
