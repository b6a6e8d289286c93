import type { V1Car } from '@vsf/sdk';
import { CliError, EXIT } from '../exit-codes.js';
import { carLabel } from '../resolve-records.js';
import type { QueueEntry } from './queue-entry.js';

/**
 * Refuses (exit 2, nothing sent) a drop-off into the place the car already holds, and a pick-up of a car
 * that is not parked: typed twice, or by two people at the desk, they would log a stay that did not
 * happen. `--force` logs them anyway. Checked on a live run against the car as the server has it; a queued
 * operation is not checked again when it is delivered.
 */
export function refuseRepeat(car: V1Car, entry: QueueEntry): void {
  const label = `${carLabel(car)} (${entry.car.ref})`;
  if (entry.operation === 'pickup' && !car.parkingSpotId && !car.parkingZoneId)
    throw new CliError(
      `${label} is not parked, so there is nothing to pick up; nothing was logged. Check the car, or log the pick-up anyway with --force`,
      EXIT.usage,
    );
  const place = entry.place;
  if (entry.operation !== 'dropoff' || !place?.id) return;
  const holds =
    place.kind === 'spot' ? car.parkingSpotId === place.id : car.parkingZoneId === place.id && !car.parkingSpotId;
  if (holds)
    throw new CliError(
      `${label} is already parked at ${place.name ?? place.ref}; nothing was logged. Log the drop-off again anyway with --force`,
      EXIT.usage,
    );
}
