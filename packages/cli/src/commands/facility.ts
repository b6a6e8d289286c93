import type { Command } from 'commander';
import type { GlobalOptions } from '../lib/context.js';
import { CliError, EXIT } from '../lib/exit-codes.js';
import { reportOperation } from '../lib/offline-queue/report-operation.js';
import { type OperationDraft, plannedEvent, runOrQueue } from '../lib/offline-queue/run-operation.js';
import { scanPhotoFiles } from '../lib/photo-files.js';
import { registerPhotoListCommand } from './photos-list.js';

// --- offline queue seam: drop-off, pick-up and photo upload run through runOrQueue (lib/offline-queue) ---
/** Runs the operation live, or queues it when the API cannot be reached, and reports either. */
async function runAndReport(globals: GlobalOptions, draft: OperationDraft, inputs: string[]): Promise<void> {
  const scan = await scanPhotoFiles(inputs);
  reportOperation(globals, await runOrQueue(globals, draft, scan.accepted), scan);
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
    .addHelpText(
      'after',
      '\n<car> is a car id, VIN or stock number.\n\nExamples:\n  vsf dropoff 7R02C123456 --spot A-12 --notes "scratch on door" ./intake/\n  vsf dropoff STK-77 --zone "Hall B" front.jpg rear.jpg',
    )
    .action(
      async (
        carRef: string,
        photos: string[],
        o: { spot?: string; zone?: string; notes?: string; at?: string },
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
    .action(async (carRef: string, photos: string[], o: { notes?: string; at?: string }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      await runAndReport(g, { operation: 'pickup', car: { ref: carRef }, event: plannedEvent('pick_up', o) }, photos);
    });

  const photos = program.command('photos').description('Car photos');
  photos
    .command('upload <car> <files...>')
    .description('Upload photos (files or directories) into an event session, one request per photo')
    .requiredOption('--session <id>', 'the sessionId of the car event')
    .addHelpText(
      'after',
      '\nFiles over 3 MiB or whose bytes are not an image are reported and skipped before any request; any\nskipped or failed photo makes the exit code 1.\n\nExamples:\n  vsf photos upload 7R02C123456 --session <sessionId> ./photos/\n  vsf photos upload STK-77 --session "$(vsf dropoff STK-77 --spot A-12 -q)" front.jpg',
    )
    .action(async (carRef: string, files: string[], o: { session: string }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      await runAndReport(g, { operation: 'photos-upload', car: { ref: carRef }, sessionId: o.session }, files);
    });
  registerPhotoListCommand(photos);
}
