/**
 * `client.cars.get(id)` against a bare `fetch` of the same URL with the same key, in a process of its own
 * and bundled as the SDK is published (run-sdk-overhead-child.ts): the benchmarks' own process runs
 * TypeScript through tsx, whose transform renames every named closure as it is created, a cost no user
 * of the built package pays. Prints one JSON line: {sdkMs, fetchMs, bareVsBare}.
 */
import { VsfClient } from '@vsf/sdk';
import { interleavedMedians } from './timing.js';

export interface SdkOverheadResult {
  sdkMs: number;
  fetchMs: number;
  bareVsBare: number;
}

const [baseUrl, apiKey, carId, runs, order] = process.argv.slice(2) as [string, string, string, string, string];

const client = new VsfClient({ apiKey, baseUrl, logLevel: 'off' });
const url = `${baseUrl}/cars/${carId}`;
const bare = async () => {
  const res = await fetch(url, { headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' } });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return ((await res.json()) as { data: unknown }).data;
};
const sdk = async () => {
  const found = await client.cars.get(carId);
  if (found.id !== carId) throw new Error(`client.cars.get returned ${found.id}`);
};
// Which goes first in each pair alternates between processes: the first of a pair pays for whatever the
// pair before left behind (a timer, a collection), a few % either way.
const [sdkMs, fetchMs] =
  order === 'bare-first'
    ? ((await interleavedMedians(bare, sdk, Number(runs), 20)).reverse() as [number, number])
    : await interleavedMedians(sdk, bare, Number(runs), 20);
// The same fetch against itself: how far apart two identical calls measure here (the noise floor).
const [bareA, bareB] = await interleavedMedians(bare, bare, Number(runs), 20);
const result: SdkOverheadResult = { sdkMs, fetchMs, bareVsBare: bareB / bareA };
process.stdout.write(`${JSON.stringify(result)}\n`);
