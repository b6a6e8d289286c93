// Lists every car changed since a point in time — the building block of an inventory feed.
//   VSF_API_KEY=vsf_… npx tsx examples/sdk/list-cars-updated-since.ts 2026-01-01T00:00:00Z
import { VsfClient } from '@vsf/sdk';

const since = process.argv[2] ?? new Date(Date.now() - 24 * 3600_000).toISOString();
const client = new VsfClient(); // VSF_API_KEY and VSF_BASE_URL from the environment

let count = 0;
for await (const car of client.cars.listAll({ updatedAfter: since })) {
  count++;
  console.log([car.id, car.year, car.make, car.model, car.updatedAt].join('\t'));
}
console.error(`${count} car(s) updated since ${since}`);
