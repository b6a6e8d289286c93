// Website inventory feed from the sync mirror: refreshes a SQLite mirror of the team's cars (incrementally
// after the first run), then writes the cars marked for sale as the JSON file the website serves.
// Run it from cron every few minutes; the website never calls the API itself.
//   */5 * * * * VSF_API_KEY=vsf_… npx tsx examples/integrations/inventory-feed.ts ./vsf-mirror.db ./public/inventory.json
import { rename, writeFile } from 'node:fs/promises';
import { VsfClient } from '@vsf/sdk';
import { openSink, sdkPageSource, sync } from '@vsf/sync';
import Database from 'better-sqlite3';

const [mirrorPath = './vsf-mirror.db', feedPath = './inventory.json'] = process.argv.slice(2);

const sink = openSink(`sqlite:${mirrorPath}`);
const result = await sync({ source: sdkPageSource(new VsfClient()), sink, resources: ['cars'] });
await sink.close();
if (!result.ok) {
  // Keep serving the previous feed rather than a partial one.
  console.error(
    `sync failed: ${result.resources
      .map((r) => r.error)
      .filter(Boolean)
      .join('; ')}`,
  );
  process.exit(1);
}

const mirror = new Database(mirrorPath, { readonly: true });
const cars = mirror
  .prepare(
    `select id, year, make, model, trim, color, mileage, mileage_units as mileageUnits, stock_number as stockNumber,
            updated_at as updatedAt
       from cars where is_for_sale = 1 order by make, model, year, id`,
  )
  .all();
mirror.close();

const feed = { generatedAt: new Date().toISOString(), count: cars.length, cars };
// Write then rename, so the website never reads a half-written file.
await writeFile(`${feedPath}.tmp`, `${JSON.stringify(feed, null, 2)}\n`);
await rename(`${feedPath}.tmp`, feedPath);
const [summary] = result.resources;
console.error(`${summary?.mode} sync: ${summary?.upserted} car(s) updated; ${cars.length} for sale in ${feedPath}`);
