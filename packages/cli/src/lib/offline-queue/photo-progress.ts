import type { GlobalOptions } from '../context.js';
import { humanBytes, humanDuration } from '../human-units.js';
import type { QueuedPhoto } from './queue-entry.js';

/** What is left, at the rate so far: `, 12 s left`, or nothing until a photo has gone. */
function eta(sentBytes: number, totalBytes: number, startedAt: number, now = Date.now()): string {
  if (sentBytes === 0 || sentBytes >= totalBytes) return '';
  const rate = sentBytes / Math.max(1, now - startedAt);
  return `, ${humanDuration((totalBytes - sentBytes) / rate)} left`;
}

/**
 * `uploaded 3/10, 1 failed (1.2 MiB of 4.0 MiB, 12 s left): front.jpg` — one line per photo as it is done,
 * counting every photo of the command, so the lines add up to the summary. A refusal is never counted as an
 * upload, nor a photo the session held already.
 */
export function progressLine(done: { uploaded: number; failed: number; present: number }, total: number): string {
  const { uploaded, failed, present } = done;
  return `uploaded ${uploaded}/${total}${failed ? `, ${failed} failed` : ''}${present ? `, ${present} already there` : ''}`;
}

/**
 * A bar with the count, failures, bytes and time left on a terminal, one line per photo otherwise,
 * nothing with --quiet.
 */
export async function photoProgress(globals: GlobalOptions, photos: QueuedPhoto[]) {
  let totalBytes = photos.reduce((sum, p) => sum + p.size, 0);
  const done = { uploaded: 0, failed: 0, present: 0 };
  let sentBytes = 0;
  const startedAt = Date.now();
  const tty = Boolean(process.stderr.isTTY) && !globals.quiet;
  // Loaded for a terminal only, as `vsf sync` does.
  const cliProgress = tty && photos.length > 0 ? (await import('cli-progress')).default : undefined;
  const bar = cliProgress
    ? new cliProgress.SingleBar(
        {
          stream: process.stderr,
          format: ' photos [{bar}] {value}/{total} | {failed} failed | {sent} of {all}{left}',
          hideCursor: true,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const units = () => ({ sent: humanBytes(sentBytes), all: humanBytes(totalBytes) });
  bar?.start(photos.length, 0, { ...units(), failed: 0, left: '' });
  return {
    tick: (photo: QueuedPhoto) => {
      if (photo.refused) done.failed++;
      else if (photo.alreadyInSession) done.present++;
      else done.uploaded++;
      // A photo the session held is not sent: the time left is for the bytes that are.
      if (photo.alreadyInSession) totalBytes -= photo.size;
      else sentBytes += photo.size;
      const left = eta(sentBytes, totalBytes, startedAt);
      if (bar) bar.increment(1, { ...units(), failed: done.failed, left });
      else if (!globals.quiet)
        process.stderr.write(
          `${progressLine(done, photos.length)} (${units().sent} of ${units().all}${left}): ${photo.source}\n`,
        );
    },
    stop: () => bar?.stop(),
  };
}
