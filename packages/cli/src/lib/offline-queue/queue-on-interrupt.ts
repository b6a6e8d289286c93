import { EXIT } from '../exit-codes.js';
/** 128 + SIGINT, what a shell reports for a command stopped with Ctrl-C (the exit-code table's). */
export const INTERRUPTED_EXIT = EXIT.interrupted;

/**
 * While an operation runs live, the first Ctrl-C calls `onInterrupt` (which queues what the server has not
 * confirmed and reports it) and exits 130. The handler is removed before that work starts, so a second
 * Ctrl-C is the signal's default: the process ends at once, mid-write if need be — the queue stays
 * consistent, as an entry is built in a staging directory and renamed into place. Returns the function that
 * removes the handler once the operation is over.
 */
export function queueOnInterrupt(onInterrupt: () => void): () => void {
  const handler = () => {
    process.off('SIGINT', handler);
    try {
      onInterrupt();
    } finally {
      process.exit(INTERRUPTED_EXIT);
    }
  };
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}
