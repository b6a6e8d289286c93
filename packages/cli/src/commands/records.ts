import type { V1Car, V1CarCreate, V1CarUpdate, V1Customer, V1EventType } from '@vsf/sdk';
import { type Command, Option } from 'commander';
import { createClient, type GlobalOptions } from '../lib/context.js';
import { CliError, EXIT } from '../lib/exit-codes.js';
import { type ListOptions, listRecords, pageFlags } from '../lib/list-pages.js';
import { collectPairs, parseTimestamp } from '../lib/option-parsers.js';
import { columns, printRecord, printRecords } from '../lib/output.js';
import { parseAssignments } from '../lib/request-fields.js';
import { resolveCar, resolveNamedFields } from '../lib/resolve-records.js';
import { showRecord } from '../lib/show-record.js';

const carColumns = columns<V1Car>({
  ID: 'id',
  YEAR: 'year',
  MAKE: 'make',
  MODEL: 'model',
  VIN: 'vin',
  STOCK: 'stockNumber',
  SPOT: 'parkingSpot',
  UPDATED: 'updatedAt',
});
const customerColumns = columns<V1Customer>({
  ID: 'id',
  NAME: (c) => `${c.firstName} ${c.lastName}`,
  EMAIL: 'email',
  PHONE: 'phone',
  DELETED: (c) => (c.deletedAt ? 'yes' : ''),
  UPDATED: 'updatedAt',
});
const eventTypeColumns = columns<V1EventType>({
  VALUE: 'value',
  NAME: 'name',
  SCOPE: 'scope',
  'NEEDS SPOT': (t) => (t.config.requiresParkingSpot ? 'yes' : 'no'),
});

interface RecordListOptions extends ListOptions {
  updatedAfter?: string;
}

const listFlags = (cmd: Command) =>
  pageFlags(cmd).option(
    '--updated-after <timestamp>',
    'only records updated at or after this ISO 8601 time (with offset)',
    // A typo is a usage error (exit 2) before any request, not a server 400.
    parseTimestamp,
  );

const updatedAfter = (o: RecordListOptions): { updatedAfter?: string } =>
  o.updatedAfter ? { updatedAfter: o.updatedAfter } : {};

export function registerRecordCommands(program: Command): void {
  const cars = program.command('cars').description('List, show, create and update cars');
  listFlags(cars.command('list').description('List cars, most recently updated first'))
    .addHelpText(
      'after',
      '\nExamples:\n  vsf cars list\n  vsf cars list --all --json > cars.json\n  vsf cars list --updated-after 2026-01-01T00:00:00Z',
    )
    .action(async (o: RecordListOptions, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      printRecords(await listRecords(o, g, createClient(g).cars, updatedAfter(o)), carColumns, g);
    });
  cars
    .command('get <car>')
    .description('Show one car, by id, VIN (any case), stock number or licence plate')
    .addHelpText(
      'after',
      '\nExamples:\n  vsf cars get 7R02C123456\n  vsf cars get 7r02c123456      # VINs in any case\n  vsf cars get "B-AB 123"       # a plate, case, spaces and dashes aside\n  vsf cars get <carId> --json',
    )
    .action(showRecord(carColumns, resolveCar));
  cars
    .command('create')
    .description('Create a car')
    .requiredOption('--year <year>', 'model year (1886-2100)')
    .requiredOption('--make <make>', 'manufacturer, e.g. Ford')
    .requiredOption('--model <model>', 'model, e.g. Mustang')
    .option(
      '--set <field=value>',
      'any other field, repeatable (e.g. --set vin=1HGCM82633A004352); spot, zone and location by name or id',
      collectPairs,
    )
    .addHelpText(
      'after',
      '\nExamples:\n  vsf cars create --year 1967 --make Ford --model Mustang --set vin=7R02C123456 --set color=red\n  vsf cars create --year 1970 --make Dodge --model Charger --set parkingSpotId=A-12',
    )
    .action(async (o: { year: string; make: string; model: string; set?: string[] }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const body = {
        ...parseAssignments(o.set ?? [], 'createCar', 'cars create'),
        year: Number(o.year),
        make: o.make,
        model: o.model,
      } as V1CarCreate;
      const client = createClient(g);
      const car = await client.cars.create(await resolveNamedFields(client, body));
      printRecord(car, carColumns, g);
    });
  cars
    .command('update <car>')
    .description('Change fields of a car (by id, VIN, stock number or plate)')
    .option(
      '--set <field=value>',
      'a field to change, repeatable; converted by the field’s type, value null clears it; spot, zone and location by name or id',
      collectPairs,
    )
    .addHelpText(
      'after',
      '\nExamples:\n  vsf cars update <carId> --set mileage=51200 --set isForSale=true\n  vsf cars update 7R02C123456 --set stockNumber=4711\n  vsf cars update 7R02C123456 --set parkingSpotId=A-12   # moves the car; vsf move logs it as an event',
    )
    .action(async (carRef: string, o: { set?: string[] }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      if (!o.set?.length) throw new CliError('Nothing to change: pass at least one --set field=value', EXIT.usage);
      const changes = parseAssignments(o.set, 'updateCar', 'cars update') as V1CarUpdate;
      const client = createClient(g);
      const car = await client.cars.update(
        (await resolveCar(client, carRef)).id,
        await resolveNamedFields(client, changes),
      );
      printRecord(car, carColumns, g);
    });

  const customers = program.command('customers').description('List and show customers');
  listFlags(customers.command('list').description('List customers, most recently updated first'))
    .addHelpText('after', '\nExamples:\n  vsf customers list\n  vsf customers list --include-deleted --all --json')
    .option('--include-deleted', 'also list soft-deleted customers')
    .action(async (o: RecordListOptions & { includeDeleted?: boolean }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const filter = { ...updatedAfter(o), ...(o.includeDeleted ? { includeDeleted: true } : {}) };
      printRecords(await listRecords(o, g, createClient(g).customers, filter), customerColumns, g);
    });
  customers
    .command('get <customerId>')
    .description('Show one customer')
    .addHelpText('after', '\nExample:\n  vsf customers get <customerId> --json')
    .action(showRecord(customerColumns, (client, id) => client.customers.get(id)));

  const eventTypes = program.command('event-types').description('Event types (drop-off, pick-up, …)');
  pageFlags(eventTypes.command('list').description('List the team’s event types'))
    .addHelpText('after', '\nExample:\n  vsf event-types list --scope vehicle')
    .addOption(
      new Option('--scope <scope>', 'only the event types of one scope').choices(['vehicle', 'customer', 'facility']),
    )
    .action(async (o: ListOptions & { scope?: 'vehicle' | 'customer' | 'facility' }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const filter = o.scope ? { scope: o.scope } : {};
      printRecords(await listRecords(o, g, createClient(g).eventTypes, filter), eventTypeColumns, g);
    });
}
