import type { VsfClient } from '@vsf/sdk';
import { photoFromPath } from '@vsf/sdk/node';
import cliProgress from 'cli-progress';
import type { GlobalOptions } from './context.js';
import type { PhotoFile } from './photo-files.js';

export interface UploadReport {
  uploaded: { path: string; id: string }[];
  failed: { path: string; error: string }[];
}

/**
 * One request per photo (the spec's rule), a few at a time; the SDK retries each. A bar with count
 * and bytes on a terminal, plain lines otherwise.
 */
export async function uploadPhotos(
  client: VsfClient,
  carId: string,
  sessionId: string,
  files: PhotoFile[],
  globals: GlobalOptions,
  concurrency = 4,
): Promise<UploadReport> {
  const report: UploadReport = { uploaded: [], failed: [] };
  const totalBytes = files.reduce((sum, f) => sum + f.size, 0);
  const tty = Boolean(process.stderr.isTTY) && !globals.quiet;
  const bar = tty
    ? new cliProgress.SingleBar(
        {
          stream: process.stderr,
          format: ' photos [{bar}] {value}/{total} | {sent}/{allBytes} bytes',
          hideCursor: true,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  let sentBytes = 0;
  bar?.start(files.length, 0, { sent: 0, allBytes: totalBytes });
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      try {
        const photo = await client.cars.photos.upload(carId, { sessionId, ...(await photoFromPath(file.path)) });
        report.uploaded.push({ path: file.path, id: photo.id });
      } catch (error) {
        report.failed.push({ path: file.path, error: (error as Error).message });
      }
      sentBytes += file.size;
      if (bar) bar.increment(1, { sent: sentBytes, allBytes: totalBytes });
      else if (!globals.quiet)
        process.stderr.write(
          `uploaded ${report.uploaded.length + report.failed.length}/${files.length}: ${file.path}\n`,
        );
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
  bar?.stop();
  return report;
}
