import type { V1Location, V1LocationCreate } from '@vsf/sdk';
import type { Command } from 'commander';
import { createClient, type GlobalOptions } from '../lib/context.js';
import { type ListOptions, listRecords, pageFlags } from '../lib/list-pages.js';
import { collectPairs } from '../lib/option-parsers.js';
import { columns, printRecord, printRecords } from '../lib/output.js';
import { parseAssignments } from '../lib/request-fields.js';
import { resolveLocation } from '../lib/resolve-records.js';
import { showRecord } from '../lib/show-record.js';

const locationColumns = columns<V1Location>({
  ID: 'id',
  NAME: 'name',
  CITY: 'city',
  TIMEZONE: 'timezone',
  ACTIVE: (l) => (l.isActive ? 'yes' : 'no'),
});

/** Locations (sites, warehouses): a zone belongs to one (`parking zones create --location`), so staff make them here. */
export function registerLocationCommands(program: Command): void {
  const locations = program.command('locations').description('Locations (sites) that parking zones belong to');
  pageFlags(locations.command('list').description('List locations'))
    .addHelpText('after', '\nExamples:\n  vsf locations list\n  vsf locations list --all --json')
    .action(async (o: ListOptions, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      printRecords(await listRecords(o, g, createClient(g).locations), locationColumns, g);
    });
  locations
    .command('get <location>')
    .description('Show one location, by id or name')
    .addHelpText('after', '\nExamples:\n  vsf locations get "North Warehouse"\n  vsf locations get <locationId> --json')
    .action(
      showRecord(locationColumns, async (client, ref) => client.locations.get((await resolveLocation(client, ref)).id)),
    );
  locations
    .command('create')
    .description('Create a location')
    .requiredOption('--name <name>', 'the name staff use, e.g. "North Warehouse"')
    .option('--set <field=value>', 'another field (address, city, timezone, …), repeatable', collectPairs)
    .addHelpText(
      'after',
      '\nExamples:\n  vsf locations create --name "North Warehouse" --set city=Chicago --set timezone=America/Chicago\n  vsf parking zones create --name "Hall A" --location "North Warehouse"',
    )
    .action(async (o: { name: string; set?: string[] }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const fields = parseAssignments(o.set ?? [], 'createLocation', 'locations create');
      const location = await createClient(g).locations.create({ ...fields, name: o.name } as V1LocationCreate);
      printRecord(location, locationColumns, g);
    });
}
