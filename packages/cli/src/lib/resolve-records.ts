import type { V1Car, VsfClient } from '@vsf/sdk';
import { NotFoundError } from '@vsf/sdk';
import { CliError, EXIT } from './exit-codes.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const carLabel = (car: V1Car): string => `${car.year} ${car.make} ${car.model}`;

const candidate = (car: V1Car) =>
  `  ${car.id}  ${carLabel(car)}${car.vin ? `  VIN ${car.vin}` : ''}${car.stockNumber ? `  stock ${car.stockNumber}` : ''}`;

/**
 * A car by id, VIN or stock number — what staff have at hand at the desk — with exact matches only. Every
 * command that takes a car goes through here, so `cars get CSX2000` finds what `dropoff CSX2000` finds.
 * Several matches (a VIN that is another car's stock number, duplicates) are an error listing them.
 */
export async function resolveCar(client: VsfClient, ref: string): Promise<V1Car> {
  if (UUID.test(ref)) {
    try {
      return await client.cars.get(ref);
    } catch (error) {
      if (error instanceof NotFoundError) throw new CliError(`No car with id ${ref}`, EXIT.failure);
      throw error;
    }
  }
  const [byVin, byStock] = await Promise.all([
    client.cars.list({ vin: ref, limit: 10 }),
    client.cars.list({ stockNumber: ref, limit: 10 }),
  ]);
  const matches = new Map<string, V1Car>();
  for (const car of [...byVin.data, ...byStock.data]) matches.set(car.id, car);
  const cars = [...matches.values()];
  if (cars.length === 1 && cars[0]) return cars[0];
  if (cars.length === 0)
    throw new CliError(`No car with id, VIN or stock number "${ref}"; see vsf cars list`, EXIT.failure);
  const more = byVin.total + byStock.total > cars.length ? '\n  …and more' : '';
  throw new CliError(
    `Several cars match "${ref}" (VIN or stock number); pass the car id:\n${cars.map(candidate).join('\n')}${more}`,
    EXIT.usage,
  );
}

interface Named {
  id: string;
  name: string;
}

/** What `resolveByIdOrName` needs of one kind of record: its label and how to fetch it by id or by name. */
interface NamedKind {
  /** `parking spot`, as the messages name it. */
  kind: string;
  /** What to do when none matches: `see vsf parking spots list`. */
  hint: string;
  get(id: string): Promise<Named>;
  /** Every record whose name is exactly `name` (at most a handful: names are labels people choose). */
  named(name: string): Promise<Named[]>;
}

/**
 * A record by id or by exact name. A name that several records share is an error listing their ids:
 * picking one silently would log a car into the wrong place.
 */
async function resolveByIdOrName(ref: string, kind: NamedKind): Promise<Named> {
  if (UUID.test(ref)) {
    const { id, name } = await kind.get(ref);
    return { id, name };
  }
  const matches = await kind.named(ref);
  const [match] = matches;
  if (!match) throw new CliError(`No ${kind.kind} named "${ref}"; ${kind.hint}`, EXIT.failure);
  if (matches.length > 1)
    throw new CliError(
      `Several ${kind.kind}s are named "${ref}"; pass the ${kind.kind.split(' ').at(-1)} id:\n${matches.map((m) => `  ${m.id}`).join('\n')}`,
      EXIT.usage,
    );
  return { id: match.id, name: match.name };
}

async function collect<T extends Named>(records: AsyncIterable<T>, name: string): Promise<T[]> {
  const matches: T[] = [];
  for await (const record of records) if (record.name === name) matches.push(record);
  return matches;
}

/** A spot by id or by its label (`A-12`). */
export const resolveSpot = (client: VsfClient, ref: string): Promise<Named> =>
  resolveByIdOrName(ref, {
    kind: 'parking spot',
    hint: 'see vsf parking spots list',
    get: (id) => client.parking.spots.get(id),
    named: async (name) => (await client.parking.spots.list({ name, limit: 10 })).data.filter((s) => s.name === name),
  });

/** A zone by id or by name. */
export const resolveZone = (client: VsfClient, ref: string): Promise<Named> =>
  resolveByIdOrName(ref, {
    kind: 'parking zone',
    hint: 'see vsf parking zones list',
    get: (id) => client.parking.zones.get(id),
    named: (name) => collect(client.parking.zones.listAll(), name),
  });

/** A location by id or by name. */
export const resolveLocation = (client: VsfClient, ref: string): Promise<Named> =>
  resolveByIdOrName(ref, {
    kind: 'location',
    hint: "pass a location id or an existing location's name",
    get: (id) => client.locations.get(id),
    named: (name) => collect(client.locations.listAll(), name),
  });
