import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { createClient, type GlobalOptions } from '../lib/context.js';
import { CliError, EXIT } from '../lib/exit-codes.js';
import { humanBytes } from '../lib/human-units.js';
import { flushQueue } from '../lib/offline-queue/flush-queue.js';
import { photoProgress } from '../lib/offline-queue/photo-progress.js';
import type { QueueEntry } from '../lib/offline-queue/queue-entry.js';
import { tryLockQueue } from '../lib/offline-queue/queue-lock.js';
import { QueueStore } from '../lib/offline-queue/queue-store.js';
import { currentTarget } from '../lib/offline-queue/queue-target.js';
import { parseTimestamp } from '../lib/option-parsers.js';
import { printJson, renderTable } from '../lib/output.js';

const BROKEN_HINT = 'look inside it, then remove it with: vsf queue drop';

/** Changes an entry only while no flush is delivering it. */
function whileLocked<T>(store: QueueStore, change: () => T): T {
  const release = tryLockQueue(store.dir);
  if (!release) throw new CliError('Another vsf is flushing the queue right now; try again in a moment', EXIT.failure);
  try {
    return change();
  } finally {
    release();
  }
}

function age(createdAt: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(createdAt)) / 1000));
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}

const status = (e: QueueEntry) => (e.attention ? `needs attention: ${e.attention.message}` : (e.lastError ?? ''));
const describe = (e: QueueEntry) => {
  const photos = e.photos.length ? ` and ${e.photos.length} photo(s)` : '';
  return `${e.operation} of ${e.car.label ?? e.car.ref}${e.place ? ` at ${e.place.name ?? e.place.ref}` : ''}${photos}`;
};

function entryJson(e: QueueEntry) {
  return {
    id: e.id,
    operation: e.operation,
    car: e.car.ref,
    carId: e.car.id ?? null,
    place: e.place?.ref ?? null,
    createdAt: e.createdAt,
    ageSeconds: Math.round((Date.now() - Date.parse(e.createdAt)) / 1000),
    sizeBytes: e.photos.filter((p) => !p.photoId).reduce((sum, p) => sum + p.size, 0),
    eventDelivered: Boolean(e.event?.result),
    photos: e.photos.length,
    photosDelivered: e.photos.filter((p) => p.photoId).length,
    attempts: e.attempts,
    lastError: e.lastError ?? null,
    needsAttention: Boolean(e.attention),
    attention: e.attention ?? null,
    target: e.target,
  };
}

export function registerQueueCommands(program: Command): void {
  const queue = program
    .command('queue')
    .description('Drop-offs, pick-ups and photo uploads waiting to reach the server (the offline queue)');

  queue
    .command('list')
    .description('What is waiting, oldest first: id, operation, car, age, size, attempts, last error')
    .addHelpText('after', '\nExamples:\n  vsf queue list\n  vsf queue list --json')
    .action((_o, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const store = new QueueStore();
      const { entries, broken } = store.read();
      if (g.json) {
        printJson({
          entries: entries.map(entryJson),
          broken: broken.map((b) => ({ ...b, fix: `${BROKEN_HINT} ${b.id}` })),
        });
      } else {
        if (entries.length === 0 && broken.length === 0) process.stdout.write(`The queue is empty (${store.dir}).\n`);
        else
          process.stdout.write(
            renderTable(entries, [
              { header: 'ID', value: (e) => e.id },
              { header: 'OPERATION', value: (e) => e.operation },
              { header: 'CAR', value: (e) => e.car.label ?? e.car.ref },
              { header: 'AGE', value: (e) => age(e.createdAt) },
              {
                header: 'SIZE',
                value: (e) => humanBytes(e.photos.filter((p) => !p.photoId).reduce((sum, p) => sum + p.size, 0)),
              },
              { header: 'ATTEMPTS', value: (e) => e.attempts },
              { header: 'STATUS', value: status },
            ]),
          );
      }
      for (const b of broken)
        process.stderr.write(`vsf: cannot read queue entry ${b.id} (${b.path}): ${b.reason}; ${BROKEN_HINT} ${b.id}\n`);
    });

  queue
    .command('flush')
    .description('Deliver the queue now, in order; exits 1 if anything is still undelivered')
    .addHelpText('after', '\nExamples:\n  vsf queue flush\n  vsf queue flush --json')
    .action(async (_o, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const store = new QueueStore();
      const client = createClient(g);
      const target = currentTarget(g);
      if (!target) throw new CliError('No API key', EXIT.auth);
      // Each entry's photos as they go (a long flush on a slow link is not silent); not with --quiet.
      const report = await flushQueue(store, client, target, (entry) =>
        photoProgress(
          g,
          entry.photos.filter((p) => !p.photoId && !p.refused),
        ),
      );
      const remaining = report.attention.length + report.waiting.length + report.broken.length;
      if (g.json) {
        printJson({
          delivered: report.delivered.map((e) => ({
            id: e.id,
            operation: e.operation,
            carId: e.car.id,
            eventId: e.event?.result?.id ?? null,
            sessionId: e.event?.result?.sessionId ?? e.sessionId ?? null,
            photoIds: e.photos.map((p) => p.photoId),
          })),
          attention: report.attention.map(entryJson),
          waiting: report.waiting.map((w) => ({ ...entryJson(w.entry), reason: w.reason })),
          broken: report.broken.map((b) => ({ ...b, fix: `${BROKEN_HINT} ${b.id}` })),
          remaining,
        });
      } else {
        for (const e of report.delivered) process.stdout.write(`delivered ${e.id}: ${describe(e)}\n`);
        for (const e of report.attention)
          process.stdout.write(
            `needs attention ${e.id}: ${describe(e)}: ${e.attention?.message}\n  ${retryHint(e)}   or give it up: vsf queue drop ${e.id}\n`,
          );
        for (const w of report.waiting)
          process.stdout.write(`still queued ${w.entry.id}: ${describe(w.entry)}: ${w.reason}\n`);
        for (const b of report.broken)
          process.stdout.write(`cannot read ${b.id} (${b.path}): ${b.reason}; ${BROKEN_HINT} ${b.id}\n`);
        if (report.delivered.length + remaining === 0) process.stdout.write('The queue is empty.\n');
      }
      if (remaining > 0) process.exitCode = EXIT.failure;
    });

  queue
    .command('drop <id>')
    .description('Give up a queued operation (or remove an entry that cannot be read)')
    .addHelpText('after', '\nExample:\n  vsf queue drop 20261123-201901123-a1b2c3')
    .action((id: string, _o, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const store = new QueueStore();
      if (!store.has(id)) throw new CliError(`No queue entry ${id}; see vsf queue list`, EXIT.failure);
      const entry = store.read().entries.find((e) => e.id === id);
      whileLocked(store, () => store.remove(id));
      const delivered = entry ? entry.photos.filter((p) => p.photoId).length + (entry.event?.result ? 1 : 0) : 0;
      if (g.json) printJson({ dropped: id, stepsAlreadyDelivered: delivered });
      else
        process.stdout.write(
          `Dropped ${id}${entry ? `: ${describe(entry)}` : ''}${delivered ? ` (${delivered} step(s) had already reached the server and stay there)` : ''}\n`,
        );
    });

  queue
    .command('retry <id>')
    .description(
      'Clear "needs attention" after fixing the cause (e.g. freeing the spot), so the next flush tries it again',
    )
    .option('--at <timestamp>', 're-time the undelivered drop-off or pick-up (ISO 8601 with offset)', parseTimestamp)
    .option('--now', 're-time the undelivered drop-off or pick-up to now')
    .addHelpText(
      'after',
      '\nA drop-off or pick-up keeps the time it was queued at; when the server refuses that time (another stay in\nthe spot meanwhile), --now or --at gives it a new one, sent as a new request.\n\nExamples:\n  vsf queue retry 20261123-201901123-a1b2c3 && vsf queue flush\n  vsf queue retry 20261123-201901123-a1b2c3 --now',
    )
    .action((id: string, o: { at?: string; now?: boolean }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const store = new QueueStore();
      const entry = store.read().entries.find((e) => e.id === id);
      if (!entry) throw new CliError(`No readable queue entry ${id}; see vsf queue list`, EXIT.failure);
      if (o.at || o.now) {
        if (!entry.event || entry.event.result)
          throw new CliError(`${id} has no undelivered drop-off or pick-up to re-time`, EXIT.usage);
        entry.event.body.occurredAt = o.at ?? new Date().toISOString();
        // Another body under the old key would be refused as a reused key: the new time is a new request.
        entry.event.idempotencyKey = randomUUID();
      }
      delete entry.attention;
      for (const photo of entry.photos) {
        delete photo.refused;
        delete photo.refusal;
      }
      whileLocked(store, () => store.save(entry));
      if (g.json) printJson({ retry: id, ...(entry.event ? { occurredAt: entry.event.body.occurredAt } : {}) });
      else process.stdout.write(`${id} will be tried again by the next flush\n`);
    });
}

/**
 * What to run for an entry the server refused. A drop-off or pick-up refused with 409 keeps its queued
 * time, which is what the server refused (the spot was taken or the car moved meanwhile): only `--now` (or
 * `--at`) sends it again with a time that can pass.
 */
function retryHint(entry: QueueEntry): string {
  const retimable = entry.operation !== 'photos-upload' && entry.attention?.status === 409;
  return retimable
    ? `re-time it to now and run: vsf queue retry ${entry.id} --now && vsf queue flush`
    : `fix it and run: vsf queue retry ${entry.id}`;
}
