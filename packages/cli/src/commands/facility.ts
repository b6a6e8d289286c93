import type { Command } from 'commander';
import type { GlobalOptions } from '../lib/context.js';
import { CliError, EXIT } from '../lib/exit-codes.js';
import { reportOperation } from '../lib/offline-queue/report-operation.js';
import {
  type OperationDraft,
  type OperationOutcome,
  plannedEvent,
  runOrQueue,
} from '../lib/offline-queue/run-operation.js';
import { photosToSend } from '../lib/photo-files.js';
import { registerPhotoListCommand } from './photos-list.js';

// --- offline queue seam: drop-off, pick-up and photo upload run through runOrQueue (lib/offline-queue) ---
/** Runs the operation live, or queues it when the API cannot be reached, and reports either. */
async function runAndReport(globals: GlobalOptions, draft: OperationDraft, inputs: string[]): Promise<void> {
  // Every file is checked before anything is sent: a typo in a file name logs no drop-off.
  const photos = await photosToSend(inputs);
  const report = (outcome: OperationOutcome) => reportOperation(globals, outcome);
  report(await runOrQueue(globals, draft, photos, report));
}
// --- end of the offline queue seam ---

export function registerFacilityCommands(program: Command): void {
  program
    .command('dropoff <car> [photos...]')
    .description('Log a drop-off into a spot or zone, then upload its photos into the event session')
    .option('--spot <spot>', 'spot id or label (e.g. A-12)')
    .option('--zone <zone>', 'zone id or name (when the car has no spot)')
    .option('--notes <text>', 'notes on the car’s condition')
    .option('--at <timestamp>', 'when it happened, ISO 8601 with offset (default now)')
    .option('--force', 'log it even when the car is already parked there')
    .addHelpText(
      'after',
      '\n<car> is a car id, VIN or stock number. Every photo is checked (found, readable, an image, at most\n3 MiB) before anything is sent; a drop-off into the place the car already holds is refused (exit 2)\nunless --force.\n\nExamples:\n  vsf dropoff 7R02C123456 --spot A-12 --notes "scratch on door" ./intake/\n  vsf dropoff STK-77 --zone "Hall B" front.jpg rear.jpg',
    )
    .action(
      async (
        carRef: string,
        photos: string[],
        o: { spot?: string; zone?: string; notes?: string; at?: string; force?: boolean },
        cmd: Command,
      ) => {
        const g = cmd.optsWithGlobals<GlobalOptions>();
        if (Boolean(o.spot) === Boolean(o.zone)) throw new CliError('Pass exactly one of --spot or --zone', EXIT.usage);
        await runAndReport(
          g,
          {
            operation: 'dropoff',
            car: { ref: carRef },
            place: o.spot ? { kind: 'spot', ref: o.spot } : { kind: 'zone', ref: o.zone as string },
            event: plannedEvent('drop_off', o),
            ...(o.force ? { force: true as const } : {}),
          },
          photos,
        );
      },
    );

  program
    .command('pickup <car> [photos...]')
    .description('Log a pick-up (frees the car’s spot), then upload its photos')
    .option('--notes <text>', 'notes on the hand-over, e.g. who collected the car')
    .addHelpText(
      'after',
      '\nExamples:\n  vsf pickup 7R02C123456\n  vsf pickup STK-77 --notes "owner collected" ./handover/',
    )
    .option('--at <timestamp>', 'when it happened, ISO 8601 with offset (default now)')
    .option('--force', 'log it even when the car is not parked')
    .action(
      async (carRef: string, photos: string[], o: { notes?: string; at?: string; force?: boolean }, cmd: Command) => {
        const g = cmd.optsWithGlobals<GlobalOptions>();
        await runAndReport(
          g,
          {
            operation: 'pickup',
            car: { ref: carRef },
            event: plannedEvent('pick_up', o),
            ...(o.force ? { force: true as const } : {}),
          },
          photos,
        );
      },
    );

  const photos = program.command('photos').description('Car photos');
  photos
    .command('upload <car> <files...>')
    .description('Upload photos (files or directories) into an event session, one request per photo')
    .requiredOption('--session <id>', 'the sessionId of the car event')
    .option('--force', 'upload photos the session holds already (same name, size and bytes) again')
    .addHelpText(
      'after',
      '\nEvery file is checked before anything is sent: one that is missing, unreadable, not an image or over\n3 MiB stops the command (exit 2) with the list. Photos the session holds already (same name, size and\nbytes) are skipped, so running it twice uploads nothing twice; a photo the server refuses makes the exit\ncode 1.\n\nExamples:\n  vsf photos upload 7R02C123456 --session <sessionId> ./photos/\n  vsf photos upload STK-77 --session "$(vsf dropoff STK-77 --spot A-12 -q)" front.jpg',
    )
    .action(async (carRef: string, files: string[], o: { session: string; force?: boolean }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      await runAndReport(
        g,
        {
          operation: 'photos-upload',
          car: { ref: carRef },
          sessionId: o.session,
          ...(o.force ? { force: true as const } : {}),
        },
        files,
      );
    });
  registerPhotoListCommand(photos);
}
