import { createClient, type GlobalOptions } from '../context.js';
import { info } from '../output.js';
import { failureMessage } from './classify-failure.js';
import { flushQueue } from './flush-queue.js';
import { QueueStore } from './queue-store.js';
import { currentTarget, sameTarget } from './queue-target.js';

/** Commands that never reach the server, or that handle the queue themselves. */
const NO_AUTO_FLUSH = new Set(['config', 'completion', 'queue', 'help']);

export const autoFlushes = (topLevelCommand: string) => !NO_AUTO_FLUSH.has(topLevelCommand);

/**
 * Before a command that reaches the server, delivers what the queue holds for this key — quietly: a note
 * on stderr only when something was delivered or is stuck. It never fails the command it precedes.
 */
export async function autoFlush(globals: GlobalOptions & { flush?: boolean }): Promise<void> {
  if (globals.flush === false) return;
  const store = new QueueStore();
  const { entries, broken } = store.read();
  if (broken.length > 0)
    info(
      globals,
      `vsf: ${broken.length} queue entr${broken.length === 1 ? 'y' : 'ies'} cannot be read; see vsf queue list`,
    );
  const target = currentTarget(globals);
  if (!target || !entries.some((e) => sameTarget(e.target, target))) return;
  // One retry, not the usual two: when the network is down, the command the user typed should not wait long.
  // Quiet: the command's own requests say "waiting for network…"; VSF_LOG=info still logs each retry.
  const client = createClient({ ...globals, quiet: true }, { maxRetries: 1 });
  try {
    const report = await flushQueue(store, client, target);
    if (report.delivered.length > 0)
      info(
        globals,
        `vsf: delivered ${report.delivered.length} queued operation(s): ${report.delivered.map((e) => e.id).join(', ')}`,
      );
    if (report.attention.length > 0)
      info(globals, `vsf: ${report.attention.length} queued operation(s) need attention; see vsf queue list`);
    const waiting = report.waiting.filter((w) => sameTarget(w.entry.target, target));
    if (waiting.length > 0)
      info(globals, `vsf: ${waiting.length} operation(s) still queued (${waiting[0]?.reason}); see vsf queue list`);
  } catch (error) {
    info(globals, `vsf: could not flush the offline queue: ${failureMessage(error)}`);
  }
}
