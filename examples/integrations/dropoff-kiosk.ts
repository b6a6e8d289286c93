// Drop-off kiosk: staff scan a car's VIN or stock number, pick a spot, and the photos taken at the kiosk
// are attached to that drop-off. One command per car:
//   VSF_API_KEY=vsf_… npx tsx examples/integrations/dropoff-kiosk.ts <vin-or-stock-number> <spot-label> photos/*.jpg
import '@vsf/sdk/node'; // lets photo uploads take file paths
import { NotFoundError, VsfClient } from '@vsf/sdk';

const [reference, spotLabel, ...photos] = process.argv.slice(2);
if (!reference || !spotLabel) {
  console.error('usage: dropoff-kiosk <vin-or-stock-number> <spot-label> [photo …]');
  process.exit(2);
}

const client = new VsfClient();
const byVin = await client.cars.list({ vin: reference, limit: 1 });
const car = byVin.data[0] ?? (await client.cars.list({ stockNumber: reference, limit: 1 })).data[0];
if (!car) {
  console.error(`No car has VIN or stock number ${reference}; check the sticker or add the car first`);
  process.exit(1);
}
const spot = (await client.parking.spots.list({ name: spotLabel, limit: 1 })).data[0];
if (!spot) {
  console.error(`No parking spot is labelled ${spotLabel}`);
  process.exit(1);
}

try {
  const dropOff = await client.cars.events.create(car.id, { activityType: 'drop_off', parkingSpotId: spot.id });
  const uploaded = [];
  for (const path of photos) {
    uploaded.push(await client.cars.photos.upload(car.id, { sessionId: dropOff.sessionId, file: path }));
  }
  console.log(
    JSON.stringify({
      carId: car.id,
      spot: spot.name,
      sessionId: dropOff.sessionId,
      photos: uploaded.map((p) => p.url),
    }),
  );
} catch (error) {
  if (error instanceof NotFoundError) console.error(`The car or spot was removed meanwhile: ${error.message}`);
  else console.error((error as Error).message);
  process.exit(1);
}
