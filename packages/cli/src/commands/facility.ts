import type { V1ParkingSpot, V1ParkingZone } from '@vsf/sdk';
import type { Command } from 'commander';
import { createClient, type GlobalOptions } from '../lib/context.js';
import { CliError, EXIT } from '../lib/exit-codes.js';
import { printJson, printRecords } from '../lib/output.js';
import { scanPhotoFiles } from '../lib/photo-files.js';
import { resolveCar, resolveSpot, resolveZone } from '../lib/resolve-records.js';
import { uploadPhotos } from '../lib/upload-photos.js';

async function uploadAndReport(
  globals: GlobalOptions,
  carId: string,
  sessionId: string,
  inputs: string[],
  extra: Record<string, unknown> = {},
) {
  const client = createClient(globals);
  const scan = await scanPhotoFiles(inputs);
  for (const s of scan.skipped) if (!globals.quiet) process.stderr.write(`skipped ${s.path}: ${s.reason}\n`);
  const report = await uploadPhotos(client, carId, sessionId, scan.accepted, globals);
  const summary = { ...extra, sessionId, uploaded: report.uploaded, failed: report.failed, skipped: scan.skipped };
  if (globals.json) printJson(summary);
  else {
    process.stdout.write(
      `${report.uploaded.length} photo(s) uploaded, ${report.failed.length} failed, ${scan.skipped.length} skipped\n`,
    );
    for (const f of report.failed) process.stdout.write(`  failed ${f.path}: ${f.error}\n`);
  }
  if (report.failed.length > 0 || scan.skipped.length > 0) process.exitCode = EXIT.failure;
}

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
        const client = createClient(g);
        const car = await resolveCar(client, carRef);
        const place = o.spot ? await resolveSpot(client, o.spot) : await resolveZone(client, o.zone as string);
        const event = await client.cars.events.create(car.id, {
          activityType: 'drop_off',
          ...(o.spot ? { parkingSpotId: place.id } : { parkingZoneId: place.id }),
          ...(o.notes ? { notes: o.notes } : {}),
          ...(o.at ? { occurredAt: o.at } : {}),
        });
        if (!g.quiet) process.stderr.write(`Dropped off ${car.label} at ${place.name} (session ${event.sessionId})\n`);
        await uploadAndReport(g, car.id, event.sessionId, photos, {
          eventId: event.id,
          carId: car.id,
          place: place.name,
        });
      },
    );

  program
    .command('pickup <car> [photos...]')
    .description('Log a pick-up (frees the car’s spot), then upload its photos')
    .option('--notes <text>')
    .addHelpText(
      'after',
      '\nExamples:\n  vsf pickup 7R02C123456\n  vsf pickup STK-77 --notes "owner collected" ./handover/',
    )
    .option('--at <timestamp>', 'when it happened, ISO 8601 with offset (default now)')
    .action(async (carRef: string, photos: string[], o: { notes?: string; at?: string }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const client = createClient(g);
      const car = await resolveCar(client, carRef);
      const event = await client.cars.events.create(car.id, {
        activityType: 'pick_up',
        ...(o.notes ? { notes: o.notes } : {}),
        ...(o.at ? { occurredAt: o.at } : {}),
      });
      if (!g.quiet) process.stderr.write(`Picked up ${car.label} (session ${event.sessionId})\n`);
      await uploadAndReport(g, car.id, event.sessionId, photos, { eventId: event.id, carId: car.id });
    });

  program
    .command('photos')
    .description('Car photos')
    .command('upload <car> <files...>')
    .description('Upload photos (files or directories) into an event session, one request per photo')
    .requiredOption('--session <id>', 'the sessionId of the car event')
    .addHelpText(
      'after',
      '\nFiles over 3 MiB or that are not images are reported and skipped before any request.\n\nExample:\n  vsf photos upload 7R02C123456 --session <sessionId> ./photos/',
    )
    .action(async (carRef: string, files: string[], o: { session: string }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const car = await resolveCar(createClient(g), carRef);
      await uploadAndReport(g, car.id, o.session, files, { carId: car.id });
    });

  const parking = program.command('parking').description('Parking zones and spots');
  parking
    .command('zones')
    .description('Parking zones')
    .command('list')
    .description('List parking zones')
    .addHelpText('after', '\nExample:\n  vsf parking zones list --json')
    .action(async (_o, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const rows: V1ParkingZone[] = [];
      for await (const z of createClient(g).parking.zones.listAll()) rows.push(z);
      printRecords(
        rows,
        [
          { header: 'ID', value: (z) => z.id },
          { header: 'NAME', value: (z) => z.name },
          { header: 'CAPACITY', value: (z) => z.capacity },
          { header: 'ACTIVE', value: (z) => (z.isActive ? 'yes' : 'no') },
        ],
        g,
      );
    });
  parking
    .command('spots')
    .description('Parking spots')
    .command('list')
    .description('List parking spots')
    .option('--free', 'only spots without a car')
    .addHelpText('after', '\nExamples:\n  vsf parking spots list --free\n  vsf parking spots list --json')
    .action(async (o: { free?: boolean }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const rows: V1ParkingSpot[] = [];
      for await (const s of createClient(g).parking.spots.listAll(o.free ? { occupied: false } : {})) rows.push(s);
      printRecords(
        rows,
        [
          { header: 'ID', value: (s) => s.id },
          { header: 'NAME', value: (s) => s.name },
          { header: 'ZONE', value: (s) => s.parkingZoneId },
          { header: 'CAR', value: (s) => s.carId },
        ],
        g,
      );
    });
}
