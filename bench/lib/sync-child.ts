/**
 * One full sync of a team's cars in its own process, so its time and peak RSS are the sync's alone.
 * Prints one JSON line: {rows, durationMs, peakRssBytes, ...}. `--source idle` loads and opens the same
 * things and syncs nothing: the library's memory floor. The process keeps V8's defaults, as a library's
 * host does; the `sync-memory` figure itself is `vsf sync`'s (full-sync.ts), which sets its own.
 */
import { readFileSync } from 'node:fs';
import { VsfClient } from '@vsf/sdk';
import { openSink, type PageSource, sdkPageSource, sync } from '@vsf/sync';

export interface SyncChildResult {
  rows: number;
  pages: number;
  durationMs: number;
  peakRssBytes: number;
}

const [source, sinkUrl, databaseUrl, teamId, baseUrl, apiKey] = process.argv.slice(2) as string[];

function peakRssBytes(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(match?.[1]) * 1024;
}

async function openDirectSource() {
  const { default: knex } = await import('knex');
  const { directPageSource } = await import('./direct-page-source.js');
  const db = knex({ client: 'pg', connection: databaseUrl!, pool: { min: 0, max: 2 } });
  return { source: directPageSource(db, teamId!), close: () => db.destroy() };
}

async function main() {
  // The database driver is loaded only for the direct floor, so the HTTP run's memory is the sync's own.
  const direct = source === 'direct' ? await openDirectSource() : undefined;
  const pageSource: PageSource =
    direct?.source ?? sdkPageSource(new VsfClient({ apiKey: apiKey!, baseUrl: baseUrl!, logLevel: 'off' }));
  const sink = openSink(sinkUrl);
  let rows = 0;
  let pages = 0;
  const started = performance.now();
  try {
    if (source !== 'idle') {
      const result = await sync({ source: pageSource, sink, resources: ['cars'], mode: 'full' });
      const cars = result.resources[0]!;
      if (!result.ok) throw new Error(`sync failed: ${cars.error}`);
      rows = cars.upserted;
      pages = cars.pages;
    } else {
      await sink.prepare([]);
    }
  } finally {
    await sink.close();
    await direct?.close();
  }
  const result: SyncChildResult = {
    rows,
    pages,
    durationMs: performance.now() - started,
    peakRssBytes: peakRssBytes(),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
