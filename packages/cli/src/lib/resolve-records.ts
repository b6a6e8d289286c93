import type { VsfClient } from '@vsf/sdk';
import { CliError, EXIT } from './exit-codes.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A car by id, VIN or stock number — what staff have at hand at the desk. */
export async function resolveCar(client: VsfClient, ref: string): Promise<{ id: string; label: string }> {
  if (UUID.test(ref)) {
    const car = await client.cars.get(ref);
    return { id: car.id, label: `${car.year} ${car.make} ${car.model}` };
  }
  for (const query of [{ vin: ref }, { stockNumber: ref }]) {
    const page = await client.cars.list({ ...query, limit: 2 });
    if (page.total > 1) throw new CliError(`Several cars match "${ref}"; use the car id`, EXIT.usage);
    const car = page.data[0];
    if (car) return { id: car.id, label: `${car.year} ${car.make} ${car.model}` };
  }
  throw new CliError(`No car with id, VIN or stock number "${ref}"`, EXIT.failure);
}

/** A spot by id or by its label (`A-12`). */
export async function resolveSpot(client: VsfClient, ref: string): Promise<{ id: string; name: string }> {
  if (UUID.test(ref)) {
    const spot = await client.parking.spots.get(ref);
    return { id: spot.id, name: spot.name };
  }
  const spot = (await client.parking.spots.list({ name: ref, limit: 1 })).data[0];
  if (!spot) throw new CliError(`No parking spot named "${ref}"; see vsf parking spots list`, EXIT.failure);
  return { id: spot.id, name: spot.name };
}

/** A zone by id or by name. */
export async function resolveZone(client: VsfClient, ref: string): Promise<{ id: string; name: string }> {
  if (UUID.test(ref)) {
    const zone = await client.parking.zones.get(ref);
    return { id: zone.id, name: zone.name };
  }
  for await (const zone of client.parking.zones.listAll())
    if (zone.name === ref) return { id: zone.id, name: zone.name };
  throw new CliError(`No parking zone named "${ref}"; see vsf parking zones list`, EXIT.failure);
}
