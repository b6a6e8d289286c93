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

/** A spot by id or by its label (`A-12`). */
export async function resolveSpot(client: VsfClient, ref: string): Promise<{ id: string; name: string }> {
  if (UUID.test(ref)) {
    const spot = await client.parking.spots.get(ref);
    return { id: spot.id, name: spot.name };
  }
  const spots = (await client.parking.spots.list({ name: ref, limit: 10 })).data.filter((s) => s.name === ref);
  const spot = spots[0];
  if (!spot) throw new CliError(`No parking spot named "${ref}"; see vsf parking spots list`, EXIT.failure);
  if (spots.length > 1)
    throw new CliError(
      `Several parking spots are named "${ref}"; pass the spot id:\n${spots.map((s) => `  ${s.id}`).join('\n')}`,
      EXIT.usage,
    );
  return { id: spot.id, name: spot.name };
}

/** A zone by id or by name. */
export async function resolveZone(client: VsfClient, ref: string): Promise<{ id: string; name: string }> {
  if (UUID.test(ref)) {
    const zone = await client.parking.zones.get(ref);
    return { id: zone.id, name: zone.name };
  }
  const zones = [];
  for await (const zone of client.parking.zones.listAll()) if (zone.name === ref) zones.push(zone);
  const zone = zones[0];
  if (!zone) throw new CliError(`No parking zone named "${ref}"; see vsf parking zones list`, EXIT.failure);
  if (zones.length > 1)
    throw new CliError(
      `Several parking zones are named "${ref}"; pass the zone id:\n${zones.map((z) => `  ${z.id}`).join('\n')}`,
      EXIT.usage,
    );
  return { id: zone.id, name: zone.name };
}

/** A location by id or by name. */
export async function resolveLocation(client: VsfClient, ref: string): Promise<{ id: string; name: string }> {
  if (UUID.test(ref)) {
    const location = await client.locations.get(ref);
    return { id: location.id, name: location.name };
  }
  for await (const location of client.locations.listAll())
    if (location.name === ref) return { id: location.id, name: location.name };
  throw new CliError(`No location named "${ref}"; pass a location id or an existing location's name`, EXIT.failure);
}
