import type { V1ParkingSpot, V1ParkingZone } from '@vsf/sdk';
import type { Command } from 'commander';
import { createClient, type GlobalOptions } from '../lib/context.js';
import { type ListOptions, listRecords, pageFlags } from '../lib/list-pages.js';
import { collectPairs } from '../lib/option-parsers.js';
import { columns, printRecord, printRecords } from '../lib/output.js';
import { parseAssignments } from '../lib/request-fields.js';
import { resolveLocation, resolveZone } from '../lib/resolve-records.js';

const zoneColumns = columns<V1ParkingZone>({
  ID: 'id',
  NAME: 'name',
  CAPACITY: 'capacity',
  ACTIVE: (z) => (z.isActive ? 'yes' : 'no'),
});

type SpotRow = V1ParkingSpot & { zoneName: string | null };
const spotColumns = columns<SpotRow>({
  ID: 'id',
  NAME: 'name',
  ZONE: (s) => s.zoneName ?? s.parkingZoneId,
  CAR: 'carId',
});

export function registerParkingCommands(program: Command): void {
  const parking = program.command('parking').description('Parking zones and spots');
  const zones = parking.command('zones').description('Parking zones');
  pageFlags(zones.command('list').description('List parking zones'))
    .addHelpText('after', '\nExample:\n  vsf parking zones list --json')
    .action(async (o: ListOptions, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      printRecords(await listRecords(o, g, createClient(g).parking.zones), zoneColumns, g);
    });
  zones
    .command('create')
    .description('Create a parking zone')
    .requiredOption('--name <name>', 'the zone’s name, e.g. "Hall A"')
    .option('--location <location>', 'location id or name')
    .option('--set <field=value>', 'another field (capacity, description, isActive), repeatable', collectPairs)
    .addHelpText(
      'after',
      '\nExamples:\n  vsf parking zones create --name "Hall A"\n  vsf parking zones create --name "Hall B" --location "North Warehouse" --set capacity=40',
    )
    .action(async (o: { name: string; location?: string; set?: string[] }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const fields = parseAssignments(o.set ?? [], 'createParkingZone', 'parking zones create');
      const client = createClient(g);
      const location = o.location ? await resolveLocation(client, o.location) : undefined;
      const zone = await client.parking.zones.create({
        ...fields,
        name: o.name,
        ...(location ? { locationId: location.id } : {}),
      });
      printRecord(zone, zoneColumns, g);
    });

  const spots = parking.command('spots').description('Parking spots');
  pageFlags(spots.command('list').description('List parking spots with their zone’s name'))
    .option('--free', 'only spots without a car')
    .option('--zone <zone>', 'only the spots of one zone (id or name)')
    .addHelpText(
      'after',
      '\nExamples:\n  vsf parking spots list --free\n  vsf parking spots list --zone "Hall A" --all --json',
    )
    .action(async (o: ListOptions & { free?: boolean; zone?: string }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const client = createClient(g);
      const zone = o.zone ? await resolveZone(client, o.zone) : undefined;
      const filter = { ...(o.free ? { occupied: false } : {}), ...(zone ? { parkingZoneId: zone.id } : {}) };
      const spotsFound = await listRecords(o, g, client.parking.spots, filter);
      // Zones are few; one pass over them names every spot's zone without a request per spot.
      const zoneNames = new Map<string, string>();
      if (spotsFound.length > 0) for await (const z of client.parking.zones.listAll()) zoneNames.set(z.id, z.name);
      const rows: SpotRow[] = spotsFound.map((s) => ({ ...s, zoneName: zoneNames.get(s.parkingZoneId) ?? null }));
      printRecords(rows, spotColumns, g);
    });
  spots
    .command('create')
    .description('Create a parking spot in a zone')
    .requiredOption('--name <label>', 'the label staff use, e.g. A-12')
    .requiredOption('--zone <zone>', 'zone id or name')
    .addHelpText('after', '\nExample:\n  vsf parking spots create --name A-12 --zone "Hall A"')
    .action(async (o: { name: string; zone: string }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const client = createClient(g);
      const zone = await resolveZone(client, o.zone);
      const spot = await client.parking.spots.create({ name: o.name, parkingZoneId: zone.id });
      const row: SpotRow = { ...spot, zoneName: zone.name };
      printRecord(row, spotColumns, g);
    });
}
