import type { V1Car, V1CarCreate, V1CarUpdate, V1Customer, V1EventType } from '@vsf/sdk';
import type { Command } from 'commander';
import { createClient, type GlobalOptions } from '../lib/context.js';
import { CliError, EXIT } from '../lib/exit-codes.js';
import { type Column, printJson, printRecords } from '../lib/output.js';

const carColumns: Column<V1Car>[] = [
  { header: 'ID', value: (c) => c.id },
  { header: 'YEAR', value: (c) => c.year },
  { header: 'MAKE', value: (c) => c.make },
  { header: 'MODEL', value: (c) => c.model },
  { header: 'VIN', value: (c) => c.vin },
  { header: 'STOCK', value: (c) => c.stockNumber },
  { header: 'SPOT', value: (c) => c.parkingSpot },
  { header: 'UPDATED', value: (c) => c.updatedAt },
];
const customerColumns: Column<V1Customer>[] = [
  { header: 'ID', value: (c) => c.id },
  { header: 'NAME', value: (c) => `${c.firstName} ${c.lastName}` },
  { header: 'EMAIL', value: (c) => c.email },
  { header: 'PHONE', value: (c) => c.phone },
  { header: 'DELETED', value: (c) => (c.deletedAt ? 'yes' : '') },
  { header: 'UPDATED', value: (c) => c.updatedAt },
];
const eventTypeColumns: Column<V1EventType>[] = [
  { header: 'VALUE', value: (t) => t.value },
  { header: 'NAME', value: (t) => t.name },
  { header: 'SCOPE', value: (t) => t.scope },
  { header: 'NEEDS SPOT', value: (t) => (t.config.requiresParkingSpot ? 'yes' : 'no') },
];

interface ListOptions {
  limit?: string;
  page?: string;
  all?: boolean;
  updatedAfter?: string;
}

const listFlags = (cmd: Command) =>
  cmd
    .option('--limit <n>', 'records per page (1-200)', '50')
    .option('--page <n>', 'page number', '1')
    .option('--all', 'page through every record')
    .option('--updated-after <timestamp>', 'only records updated at or after this ISO 8601 time (with offset)');

function pageQuery(o: ListOptions) {
  const limit = Number(o.limit);
  const page = Number(o.page);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200)
    throw new CliError('--limit must be a whole number from 1 to 200', EXIT.usage);
  if (!Number.isInteger(page) || page < 1) throw new CliError('--page must be a whole number ≥ 1', EXIT.usage);
  return { limit, page, ...(o.updatedAfter ? { updatedAfter: o.updatedAfter } : {}) };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** Parses `--set field=value` pairs: numbers and booleans as such, `null` clears. */
export function parseAssignments(pairs: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CliError(`Expected field=value, got "${pair}"`, EXIT.usage);
    const [field, raw] = [pair.slice(0, eq), pair.slice(eq + 1)];
    body[field] =
      raw === 'null' ? null : raw === 'true' ? true : raw === 'false' ? false : /^-?\d+$/.test(raw) ? Number(raw) : raw;
  }
  return body;
}

const collectPairs = (value: string, previous: string[] = []) => [...previous, value];

export function registerRecordCommands(program: Command): void {
  const cars = program.command('cars').description('List, show, create and update cars');
  listFlags(cars.command('list').description('List cars, most recently updated first'))
    .addHelpText(
      'after',
      '\nExamples:\n  vsf cars list\n  vsf cars list --all --json > cars.json\n  vsf cars list --updated-after 2026-01-01T00:00:00Z',
    )
    .action(async (o: ListOptions, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const client = createClient(g);
      const query = pageQuery(o);
      const rows = o.all ? await collect(client.cars.listAll(query)) : (await client.cars.list(query)).data;
      printRecords(rows, carColumns, g);
    });
  cars
    .command('get <carId>')
    .description('Show one car')
    .addHelpText('after', '\nExamples:\n  vsf cars get <carId>\n  vsf cars get <carId> --json')
    .action(async (carId: string, _o, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const car = await createClient(g).cars.get(carId);
      if (g.json) printJson(car);
      else printRecords([car], carColumns, g);
    });
  cars
    .command('create')
    .description('Create a car')
    .requiredOption('--year <year>', 'model year (1886-2100)')
    .requiredOption('--make <make>')
    .requiredOption('--model <model>')
    .option('--set <field=value>', 'any other field, repeatable (e.g. --set vin=1HGCM82633A004352)', collectPairs)
    .addHelpText(
      'after',
      '\nExample:\n  vsf cars create --year 1967 --make Ford --model Mustang --set vin=7R02C123456 --set color=red',
    )
    .action(async (o: { year: string; make: string; model: string; set?: string[] }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const body = {
        ...parseAssignments(o.set ?? []),
        year: Number(o.year),
        make: o.make,
        model: o.model,
      } as V1CarCreate;
      const car = await createClient(g).cars.create(body);
      if (g.json) printJson(car);
      else printRecords([car], carColumns, g);
    });
  cars
    .command('update <carId>')
    .description('Change fields of a car')
    .option('--set <field=value>', 'a field to change, repeatable; value null clears it', collectPairs)
    .addHelpText('after', '\nExample:\n  vsf cars update <carId> --set mileage=51200 --set isForSale=true')
    .action(async (carId: string, o: { set?: string[] }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      if (!o.set?.length) throw new CliError('Nothing to change: pass at least one --set field=value', EXIT.usage);
      const car = await createClient(g).cars.update(carId, parseAssignments(o.set) as V1CarUpdate);
      if (g.json) printJson(car);
      else printRecords([car], carColumns, g);
    });

  const customers = program.command('customers').description('List and show customers');
  listFlags(customers.command('list').description('List customers, most recently updated first'))
    .addHelpText('after', '\nExamples:\n  vsf customers list\n  vsf customers list --include-deleted --all --json')
    .option('--include-deleted', 'also list soft-deleted customers')
    .action(async (o: ListOptions & { includeDeleted?: boolean }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const client = createClient(g);
      const query = { ...pageQuery(o), ...(o.includeDeleted ? { includeDeleted: true } : {}) };
      const rows = o.all ? await collect(client.customers.listAll(query)) : (await client.customers.list(query)).data;
      printRecords(rows, customerColumns, g);
    });
  customers
    .command('get <customerId>')
    .description('Show one customer')
    .addHelpText('after', '\nExample:\n  vsf customers get <customerId> --json')
    .action(async (id: string, _o, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const customer = await createClient(g).customers.get(id);
      if (g.json) printJson(customer);
      else printRecords([customer], customerColumns, g);
    });

  const eventTypes = program.command('event-types').description('Event types (drop-off, pick-up, …)');
  eventTypes
    .command('list')
    .description('List the team’s event types')
    .addHelpText('after', '\nExample:\n  vsf event-types list --scope vehicle')
    .option('--scope <scope>', 'vehicle, customer or facility')
    .action(async (o: { scope?: 'vehicle' | 'customer' | 'facility' }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const rows = await collect(createClient(g).eventTypes.listAll(o.scope ? { scope: o.scope } : {}));
      printRecords(rows, eventTypeColumns, g);
    });
}
