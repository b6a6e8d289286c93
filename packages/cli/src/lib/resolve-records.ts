import type { V1Car, VsfClient } from '@vsf/sdk';
import { NotFoundError } from '@vsf/sdk';
import { CliError, EXIT } from './exit-codes.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const carLabel = (car: V1Car): string => `${car.year} ${car.make} ${car.model}`;

const candidate = (car: V1Car) =>
  `  ${car.id}  ${carLabel(car)}${car.vin ? `  VIN ${car.vin}` : ''}${car.stockNumber ? `  stock ${car.stockNumber}` : ''}${car.licensePlate ? `  plate ${car.licensePlate}` : ''}`;

/** A plate as people type it: `b-ab 123` is `BAB123`. */
const plateKey = (plate: string) => plate.replace(/[\s-]/g, '').toUpperCase();

/**
 * A car by id, VIN, stock number or licence plate — what staff have at hand at the desk. Every command that
 * takes a car goes through here, so `cars get CSX2000` finds what `dropoff CSX2000` finds. A VIN is found in
 * any case (VINs are written in capitals; people type them in lower case); a stock number exactly. Only when
 * neither matches are the cars' plates compared (case, spaces and dashes aside): the API has no plate
 * filter, so that takes a pass over the team's cars, and a car found by VIN or stock number never waits for
 * it. Several matches (a VIN that is another car's stock number, duplicates) are an error listing them.
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
  const vins = [...new Set([ref, ref.toUpperCase()])];
  const pages = await Promise.all([
    ...vins.map((vin) => client.cars.list({ vin, limit: 10 })),
    client.cars.list({ stockNumber: ref, limit: 10 }),
  ]);
  let cars = unique(pages.flatMap((p) => p.data));
  let more = pages.reduce((n, p) => n + p.total, 0) > cars.length;
  if (cars.length === 0) {
    cars = await carsWithPlate(client, ref);
    more = false;
  }
  if (cars.length === 1 && cars[0]) return cars[0];
  if (cars.length === 0)
    throw new CliError(`No car with id, VIN, stock number or plate "${ref}"; see vsf cars list`, EXIT.failure);
  throw new CliError(
    `Several cars match "${ref}" (VIN, stock number or plate); pass the car id:\n${cars.map(candidate).join('\n')}${more ? '\n  …and more' : ''}`,
    EXIT.usage,
  );
}

const unique = (cars: V1Car[]): V1Car[] => [...new Map(cars.map((car) => [car.id, car])).values()];

async function carsWithPlate(client: VsfClient, plate: string): Promise<V1Car[]> {
  const wanted = plateKey(plate);
  const matches: V1Car[] = [];
  if (wanted === '') return matches;
  for await (const car of client.cars.listAll())
    if (car.licensePlate && plateKey(car.licensePlate) === wanted) matches.push(car);
  return matches;
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

/** Body fields that name a record people know by name, and how to find it. */
const NAMED_FIELDS: Record<string, (client: VsfClient, ref: string) => Promise<Named>> = {
  parkingSpotId: resolveSpot,
  parkingZoneId: resolveZone,
  locationId: resolveLocation,
};

/**
 * `--set parkingSpotId=A-12` as `dropoff --spot A-12` takes it: a spot, zone or location given by name in a
 * request body becomes its id (an id, `null` or an absent field is left as it is, for the server to check).
 */
export async function resolveNamedFields<T extends Record<string, unknown>>(client: VsfClient, body: T): Promise<T> {
  const resolved: Record<string, unknown> = { ...body };
  for (const [field, resolve] of Object.entries(NAMED_FIELDS)) {
    const ref = resolved[field];
    if (typeof ref === 'string' && !UUID.test(ref)) resolved[field] = (await resolve(client, ref)).id;
  }
  return resolved as T;
}
