import {
  DEFAULT_MAX_DELAY_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_SINK_URL,
  openSink,
  type RetryOptions,
  type RetrySummary,
  type Sink,
  SyncUsageError,
  syncableResources,
} from '@vsf/sync';
import type { Command } from 'commander';
import type { GlobalOptions } from './context.js';
import { CliError, EXIT } from './exit-codes.js';
import { nameList, seconds, wholeNumber } from './option-parsers.js';

/** Flags `vsf sync` and `vsf sync verify` share. */
export interface MirrorFlags {
  to: string;
  resources?: string[];
  maxRetries: number;
  maxRetryDelay: number;
}

export function addMirrorFlags(command: Command): Command {
  return addMirrorLocationFlags(command)
    .option(
      '--max-retries <n>',
      'retries of one request in a row before the run stops (a reset, a 5xx, a 429)',
      wholeNumber(0),
      DEFAULT_MAX_RETRIES,
    )
    .option('--max-retry-delay <seconds>', 'longest backoff between retries', seconds, DEFAULT_MAX_DELAY_MS / 1000);
}

/** `--to` and `--resources`: which mirror, and which of its resources (`vsf sync status` takes only these). */
export function addMirrorLocationFlags(command: Command): Command {
  return command
    .option(
      '--to <url>',
      'sqlite:<file> (or a file ending .db, .sqlite, .sqlite3), postgres://… or jsonl:<dir>',
      process.env.VSF_SYNC_TO ?? DEFAULT_SINK_URL,
    )
    .option(
      '--resources <names>',
      'comma-separated: cars,customers,contacts,locations,event_types,…',
      nameList(() => syncableResources().map((r) => r.name)),
    );
}

export function retryOptions(flags: MirrorFlags): RetryOptions {
  return { maxRetries: flags.maxRetries, maxDelayMs: flags.maxRetryDelay * 1000 };
}

/** `3 retries (1 connection reset, 1 HTTP 503, 1 HTTP 429)` */
export function describeRetries(retries: RetrySummary): string {
  const reasons = Object.entries(retries.reasons).map(([reason, n]) => `${n} ${reason}`);
  return `${retries.total} ${retries.total === 1 ? 'retry' : 'retries'}${reasons.length > 0 ? ` (${reasons.join(', ')})` : ''}`;
}

/** What `read` returns; a SyncUsageError it throws (a bad `--to` or `--resources`) is a usage error (exit 2). */
export function syncUsage<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof SyncUsageError) throw new CliError(error.message, EXIT.usage);
    throw error;
  }
}

/** The sink at `--to`; a URL it cannot open is a usage error (exit 2). */
export function openMirror(to: string): Sink {
  return syncUsage(() => openSink(to));
}

/** `use` of the sink at `--to`, closed after it whatever happens. */
export async function withMirror<T>(to: string, use: (sink: Sink) => Promise<T>): Promise<T> {
  const sink = openMirror(to);
  try {
    return await use(sink);
  } finally {
    await sink.close();
  }
}

/** The action of a `vsf sync` subcommand: `run` with its options, as `subcommandOptions` reads them, and the global ones. */
export function subcommandAction<T>(run: (o: T, globals: GlobalOptions) => Promise<void>) {
  return (_flags: T, command: Command): Promise<void> =>
    run(subcommandOptions<T>(command), command.optsWithGlobals<GlobalOptions>());
}

/**
 * A subcommand's options, with those its parent also defines taken from the parent when given there.
 * Commander hands `--to` in `vsf sync verify --to x` to `sync`, which defines it too, whatever the
 * order; this way both `vsf sync --to x verify` and `vsf sync verify --to x` mean the same.
 */
export function subcommandOptions<T>(command: Command): T {
  const options = { ...command.opts() };
  const parent = command.parent;
  if (parent) {
    for (const [key, value] of Object.entries(parent.opts())) {
      const given = parent.getOptionValueSource(key);
      if ((given === 'cli' || given === 'env') && command.getOptionValueSource(key) !== 'cli') options[key] = value;
    }
  }
  return options as T;
}
