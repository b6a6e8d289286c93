import type { V1Car, VsfClient } from '@vsf/sdk';
import type { Command } from 'commander';
import { createClient, type GlobalOptions } from '../lib/context.js';
import { CliError, EXIT } from '../lib/exit-codes.js';
import { parseTimestamp } from '../lib/option-parsers.js';
import { info, printJson } from '../lib/output.js';
import { carLabel, resolveCar, resolveSpot, resolveZone } from '../lib/resolve-records.js';

/**
 * The event type a move is logged as: the drop-off, the type that places a car (it requires a spot or zone).
 * A move logged as a car event starts the car's new stay from that event, so the car's events and its
 * parking history show when and where it went; a `cars update --set parkingSpotId=…` moves it without one.
 */
const PLACING_EVENT = 'drop_off';

interface MoveOptions {
  spot?: string;
  zone?: string;
  notes?: string;
  at?: string;
}

/** Where the car is now, as staff name it (`spot A-1`, `zone Hall B`); undefined when it is not parked. */
async function currentPlace(client: VsfClient, car: V1Car): Promise<string | undefined> {
  if (car.parkingSpotId) return `spot ${car.parkingSpot ?? car.parkingSpotId}`;
  if (car.parkingZoneId) return `zone ${(await client.parking.zones.get(car.parkingZoneId)).name}`;
  return undefined;
}

export function registerMoveCommand(program: Command): void {
  program
    .command('move <car>')
    .description('Move a parked car to another spot or zone, logged as a car event (drop-off) in its history')
    .option('--spot <spot>', 'the spot it goes to: id or label (e.g. A-12)')
    .option('--zone <zone>', 'the zone it goes to, without a spot: id or name')
    .option('--notes <text>', 'why it moved; added after "moved from <place>" in the event’s notes')
    .option('--at <timestamp>', 'when it moved, ISO 8601 with offset (default now)', parseTimestamp)
    .addHelpText(
      'after',
      '\n<car> is a car id, VIN, stock number or plate. A car that is not parked is logged in with vsf dropoff.\n\nExamples:\n  vsf move 7R02C123456 --spot B-3\n  vsf move STK-77 --zone "Hall B" --notes "A-12 needs the lift"',
    )
    .action(async (carRef: string, o: MoveOptions, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      if (Boolean(o.spot) === Boolean(o.zone))
        throw new CliError('Pass exactly one of --spot or --zone: where the car goes', EXIT.usage);
      const client = createClient(g);
      const car = await resolveCar(client, carRef);
      const from = await currentPlace(client, car);
      if (!from)
        throw new CliError(
          `${carLabel(car)} (${car.id}) is not parked, so there is nothing to move; log its arrival with: vsf dropoff ${carRef} ${o.spot ? `--spot ${o.spot}` : `--zone ${o.zone}`}`,
          EXIT.usage,
        );
      const place = o.spot ? await resolveSpot(client, o.spot) : await resolveZone(client, o.zone as string);
      // A zone without a spot is a move only for a car that holds a spot in it (it leaves the spot).
      const already = o.spot ? car.parkingSpotId === place.id : car.parkingZoneId === place.id && !car.parkingSpotId;
      if (already) throw new CliError(`${carLabel(car)} is already in ${from}; nothing to move`, EXIT.usage);
      const event = await client.cars.events.create(car.id, {
        activityType: PLACING_EVENT,
        [o.spot ? 'parkingSpotId' : 'parkingZoneId']: place.id,
        notes: `moved from ${from}${o.notes ? `: ${o.notes}` : ''}`,
        ...(o.at ? { occurredAt: o.at } : {}),
      });
      const to = `${o.spot ? 'spot' : 'zone'} ${place.name}`;
      if (g.json) return printJson({ car: car.id, from, to, event });
      info(g, `Moved ${carLabel(car)} from ${from} to ${to} (event ${event.id})`);
      // stdout: the event's photo session, as dropoff prints it, for `vsf photos upload --session`.
      process.stdout.write(`${event.sessionId}\n`);
    });
}
