import type { V1CarPhoto } from '@vsf/sdk';
import type { Command } from 'commander';
import { createClient, type GlobalOptions } from '../lib/context.js';
import { fetchListed, type ListOptions, pageFlags } from '../lib/list-pages.js';
import { printRecords } from '../lib/output.js';
import { resolveCar } from '../lib/resolve-records.js';

/** `/api/media/<id>` made absolute against the API's origin, so it can be opened or fetched as printed. */
export function absoluteMediaUrl(url: string, baseUrl: string): string {
  try {
    return new URL(url, baseUrl).toString();
  } catch {
    return url;
  }
}

export function registerPhotoListCommand(photos: Command): void {
  pageFlags(photos.command('list <car>').description('A car’s photo gallery (car id, VIN or stock number)'))
    .option('--session <id>', 'only the photos of one event session')
    .addHelpText('after', '\nExamples:\n  vsf photos list 7R02C123456\n  vsf photos list STK-77 --all --json')
    .action(async (carRef: string, o: ListOptions & { session?: string }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const client = createClient(g);
      const car = await resolveCar(client, carRef);
      const filter = o.session ? { sessionId: o.session } : {};
      const rows = (
        await fetchListed(
          o,
          g,
          (q) => client.cars.photos.list(car.id, { ...filter, ...q }),
          (q) => client.cars.photos.listAll(car.id, { ...filter, ...q }),
        )
      ).map((p: V1CarPhoto) => ({ ...p, url: absoluteMediaUrl(p.url, client.baseUrl) }));
      printRecords(
        rows,
        [
          { header: 'FILENAME', value: (p) => p.filename },
          { header: 'SIZE', value: (p) => p.sizeBytes },
          { header: 'SESSION', value: (p) => p.sessionId },
          { header: 'URL', value: (p) => p.url },
          { header: 'CREATED', value: (p) => p.createdAt },
        ],
        g,
      );
    });
}
