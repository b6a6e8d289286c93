// Nightly export for the accountant or a data warehouse: a full copy of customers, contacts, cars and
// locations as JSON Lines, one folder per night. Each line is {op, id, record, syncedAt}.
//   0 2 * * * VSF_API_KEY=vsf_… npx tsx examples/integrations/nightly-export.ts ./exports
import { join } from 'node:path';
import { VsfClient } from '@vsf/sdk';
import { openSink, sdkPageSource, sync } from '@vsf/sync';

const root = process.argv[2] ?? './exports';
const night = new Date().toISOString().slice(0, 10);
const folder = join(root, night);

const sink = openSink(`jsonl:${folder}`);
const result = await sync({
  source: sdkPageSource(new VsfClient()),
  sink,
  resources: ['customers', 'contacts', 'cars', 'locations'],
  mode: 'full',
});
await sink.close();

for (const r of result.resources) console.log(`${r.resource}\t${r.status}\t${r.upserted} record(s)`);
console.error(result.ok ? `exported to ${folder}` : 'export incomplete: see the failed resources above');
process.exitCode = result.ok ? 0 : 1;
