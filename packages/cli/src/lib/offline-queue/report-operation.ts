import type { GlobalOptions } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { printJson } from '../output.js';
import type { PhotoRefusal } from './queue-entry.js';
import type { OperationOutcome } from './run-operation.js';

interface Failure extends PhotoRefusal {
  path: string;
}

/**
 * The result of a drop-off, pick-up or photo upload: what was delivered, or that it was queued (exit 0: the
 * queue will deliver it), with photos refused listed and counted as failures (exit 1), and photos the session
 * held already listed as skipped (exit 0: they are there). The counts add up to the photos of the command.
 *
 * Drop-off and pick-up print only the new event's session id on stdout (also with --quiet), so
 * `--session "$(vsf dropoff … -q)"` works in a script; their sentences and photo summary go to stderr. When
 * the operation was queued there is no session id yet: stdout stays empty and the queue notice goes to
 * stderr whatever --quiet says, since it is the command's result. A photo upload prints its summary on stdout.
 * Failures are listed with the server's field details whatever --quiet says.
 */
export function reportOperation(globals: GlobalOptions, outcome: OperationOutcome): void {
  const { entry, queued } = outcome;
  const uploaded = entry.photos
    .filter((p) => p.photoId && !p.alreadyInSession)
    .map((p) => ({ path: p.source, id: p.photoId }));
  const skipped = entry.photos
    .filter((p) => p.alreadyInSession)
    .map((p) => ({ path: p.source, reason: `already in the session (photo ${p.photoId})`, photoId: p.photoId }));
  const refusedOrUnsent = queued ? entry.photos.filter((p) => p.refused) : entry.photos.filter((p) => !p.photoId);
  const failed: Failure[] = refusedOrUnsent.map((p) => ({
    path: p.source,
    ...(p.refusal ?? {
      error: p.refused ?? outcome.failure ?? 'not sent',
      code: null,
      status: null,
      details: null,
    }),
  }));
  const waiting = queued ? entry.photos.filter((p) => !p.photoId && !p.refused).length : 0;
  const sessionId = entry.event?.result?.sessionId ?? entry.sessionId;
  const summary = {
    queued: Boolean(queued),
    ...(queued ? { queueId: queued.id, reason: queued.reason, waitingPhotos: waiting } : {}),
    ...(entry.event?.result ? { eventId: entry.event.result.id } : {}),
    carId: entry.car.id ?? null,
    ...(entry.place ? { place: entry.place.name ?? entry.place.ref } : {}),
    sessionId: sessionId ?? null,
    uploaded,
    failed,
    skipped,
  };
  const car = entry.car.label ?? entry.car.ref;
  const done = entry.event?.result
    ? `${entry.operation === 'dropoff' ? `Dropped off ${car} at ${entry.place?.name}` : `Picked up ${car}`} (session ${entry.event.result.sessionId})\n`
    : '';
  const queuedNotice = queued
    ? `Queued ${queued.id}: ${
        entry.event && !entry.event.result
          ? `the ${entry.operation} of ${car}${waiting ? ` and ${waiting} photo(s)` : ''}`
          : `${waiting} photo(s) into session ${sessionId}`
      }, because ${queued.reason}.\nIt is delivered by the next vsf command that reaches the server, or now with: vsf queue flush (to give it up: vsf queue drop ${queued.id})\n`
    : '';
  if (globals.json) {
    // The session id is in the JSON; the sentences are for the person watching.
    if (done && !globals.quiet) process.stderr.write(done);
    printJson(summary);
  } else {
    const isEvent = entry.operation !== 'photos-upload';
    const out = isEvent ? process.stderr : process.stdout;
    if (isEvent && entry.event?.result) process.stdout.write(`${entry.event.result.sessionId}\n`);
    if (done && !globals.quiet) process.stderr.write(done);
    if (queuedNotice) (isEvent ? process.stderr : process.stdout).write(queuedNotice);
    if (entry.photos.length > 0 && !(isEvent && globals.quiet))
      out.write(
        `${uploaded.length}/${entry.photos.length} photo(s) uploaded, ${failed.length} failed, ${skipped.length} skipped${waiting ? `, ${waiting} queued` : ''}\n`,
      );
    for (const f of failed) out.write(`  failed ${f.path}: ${f.error}\n`);
    for (const s of skipped) out.write(`  skipped ${s.path}: ${s.reason}\n`);
  }
  if (failed.length > 0) process.exitCode = EXIT.failure;
}
