import {
  follow,
  isoTime,
  SyncAbortedError,
  SyncLockedError,
  type SyncOptions,
  type SyncProgress,
  type SyncResult,
  sdkPageSource,
  sync,
} from '@vsf/sync';
import type { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { createClient, type GlobalOptions } from '../lib/context.js';
import { CliError, EXIT } from '../lib/exit-codes.js';
import { collectStartupGarbage } from '../lib/lean-start.js';
import { responseTimeoutMs, SYNC_RESPONSE_TIMEOUT_MS } from '../lib/network-wait.js';
import { seconds } from '../lib/option-parsers.js';
import { colorEnabled, columns, printJson, renderTable } from '../lib/output.js';
import { addMirrorFlags, describeRetries, type MirrorFlags, openMirror, retryOptions } from '../lib/sync-flags.js';
import { runError, runExitCode, stopExitCode, warnStopped } from '../lib/sync-outcome.js';
import { registerSyncStatusCommand } from './sync-status.js';
import { registerSyncVerifyCommand } from './sync-verify.js';

interface SyncFlags extends MirrorFlags {
  full?: boolean;
  dryRun?: boolean;
  prune?: boolean;
  lookback: number;
  follow?: boolean;
  interval: number;
  feed: boolean;
}

/** A live bar per resource on a terminal; plain log lines (no control codes) otherwise. */
async function progressReporter(globals: GlobalOptions) {
  if (globals.quiet) return { update: () => {}, stop: () => {} };
  if (!process.stderr.isTTY) {
    return {
      update: (p: SyncProgress) =>
        process.stderr.write(`${p.resource}: page ${p.page}/${p.pages}, ${p.rows} rows, ${p.rowsPerSecond} rows/s\n`),
      stop: () => {},
    };
  }
  // Only a terminal draws bars: cron and pipes never load cli-progress and its terminal-width tables.
  const { default: cliProgress } = await import('cli-progress');
  const bars = new cliProgress.MultiBar(
    {
      stream: process.stderr,
      format: ' {resource} [{bar}] {value}/{total} pages | {rows} rows | {rate} rows/s',
      hideCursor: true,
      clearOnComplete: false,
      barCompleteChar: '#',
      barIncompleteChar: colorEnabled(globals, process.stderr) ? '\u2591' : '-',
    },
    cliProgress.Presets.shades_classic,
  );
  const byResource = new Map<string, SingleBar>();
  return {
    update: (p: SyncProgress) => {
      let bar = byResource.get(p.resource);
      if (!bar) {
        bar = bars.create(p.pages, 0, { resource: p.resource.padEnd(12), rows: 0, rate: 0 });
        byResource.set(p.resource, bar);
      }
      bar.setTotal(p.pages);
      bar.update(p.page, { rows: p.rows, rate: p.rowsPerSecond });
    },
    stop: () => bars.stop(),
  };
}

const summaryColumns = columns<SyncResult['resources'][number]>({
  RESOURCE: 'resource',
  STATUS: 'status',
  VIA: 'via',
  MODE: 'mode',
  PAGES: 'pages',
  UPSERTED: 'upserted',
  DELETED: 'deleted',
  // Changes read from the events feed, apart from the pages read by list.
  FEED: 'feedChanges',
  TOTAL: 'total',
  RETRIES: 'retries',
  MS: 'durationMs',
  'WATERMARK / ERROR': (s) => s.error ?? s.watermark ?? s.updatedAfter ?? '',
});

export function registerSyncCommand(program: Command): void {
  const command = program
    .command('sync')
    .description('Mirror the team’s records into SQLite, PostgreSQL or JSONL: full the first time, incremental after')
    .option('--full', 'ignore the watermark and fetch everything')
    .option('--dry-run', 'show what would be fetched; write nothing')
    .option('--prune', 'after a complete full run, delete mirrored rows the server no longer has')
    .option('--lookback <seconds>', 'how far before the last run an incremental run looks', seconds, 60)
    .option(
      '--follow',
      'after syncing, keep the mirror current: tail the events feed, or poll where the server has none',
    )
    .option(
      '--interval <seconds>',
      'with --follow against a server without the events feed: seconds between runs',
      seconds,
      30,
    )
    .option('--no-feed', 'sync by lists only, even where the server announces its events feed');
  addMirrorFlags(command)
    .addHelpText(
      'after',
      '\nExamples:\n  vsf sync                                  # into ./vsf-mirror.db\n  vsf sync --resources cars,customers --to postgres://localhost/mirror\n  vsf sync --dry-run\n  vsf sync --follow                         # stay current until SIGTERM\n  vsf sync --json   # for cron: one JSON document, exit codes as in the README (3 server down, 5 locked)\n  vsf sync verify   # compare the mirror with the server; exit 1 on drift\n  vsf sync status   # when each resource last synced, and whether a run is under way',
    )
    .action(async (o: SyncFlags, cmd: Command) => {
      collectStartupGarbage();
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      const client = createClient(globals, {
        responseTimeout: responseTimeoutMs(process.env, SYNC_RESPONSE_TIMEOUT_MS),
      });
      const sink = openMirror(o.to);
      const progress = await progressReporter(globals);
      const options: SyncOptions = {
        source: sdkPageSource(client),
        sink,
        resources: o.resources,
        mode: o.full ? 'full' : 'auto',
        lookbackMs: o.lookback * 1000,
        prune: Boolean(o.prune),
        dryRun: Boolean(o.dryRun),
        onProgress: progress.update,
        retry: retryOptions(o),
        useFeed: o.feed,
      };
      try {
        if (o.follow) {
          await followMirror(options, o, globals);
          return;
        }
        const result = await sync(options);
        progress.stop();
        report(result, o, globals);
      } catch (error) {
        // Another run holds the mirror: exit 5, which cron can tell from a failure.
        if (error instanceof SyncLockedError) throw new CliError(error.message, EXIT.locked);
        throw error;
      } finally {
        progress.stop();
        await sink.close();
      }
    });
  registerSyncVerifyCommand(command);
  registerSyncStatusCommand(command);
}

/**
 * The summary of a run: a table, or JSON for cron; the reason a run stopped early on stderr either way. A
 * run stopped before any resource read a page (a refused key, the server down) prints no table: one line
 * on stderr says it all.
 */
function report(result: SyncResult, o: SyncFlags, globals: GlobalOptions): void {
  const exitCode = runExitCode(result, Boolean(o.resources?.length));
  if (globals.json) {
    const error = runError(result, exitCode);
    printJson({
      ok: result.ok,
      to: o.to,
      retries: result.retries,
      ...(error ? { error, ...(result.stopReason ? { stopReason: result.stopReason } : {}) } : {}),
      resources: result.resources,
    });
  } else if (!result.stopReason || result.resources.some((r) => r.pages > 0 || r.feedChanges)) {
    process.stdout.write(renderTable(result.resources, summaryColumns));
    process.stdout.write(`${describeRetries(result.retries)}\n`);
  }
  warnStopped(result, globals);
  if (result.feed?.resynced) {
    // A resync that stopped (another team's key, the server gone) did not sync in full: the line above says why.
    const instead = result.ok ? 'synced in full instead' : 'a full sync was tried instead and stopped';
    process.stderr.write(`vsf: ${result.feed.resynced}; ${instead}\n`);
  }
  process.exitCode = exitCode;
}

/**
 * `--follow`: runs until SIGTERM or SIGINT, which end it cleanly (exit 0) after the change being applied.
 * The first run's summary is printed as a plain run's is; then a line per page of changes on stderr.
 */
async function followMirror(options: SyncOptions, o: SyncFlags, globals: GlobalOptions): Promise<void> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  let first = true;
  let reported: string | undefined;
  // A follower runs for days: each line says when, so its log reads as a timeline.
  const say = (line: string) => {
    if (!globals.quiet) process.stderr.write(`${isoTime()} vsf: ${line}\n`);
  };
  try {
    await follow({
      ...options,
      signal: stop.signal,
      pollIntervalMs: o.interval * 1000,
      onRun: (result) => {
        if (first) {
          report(result, o, globals);
          reported = result.error;
        }
        first = false;
        process.exitCode = 0;
      },
      onApplied: (page) => {
        if (page.events > 0)
          say(`applied ${page.events} change${page.events === 1 ? '' : 's'} (cursor ${page.cursor})`);
      },
      onNotice: say,
    });
  } catch (error) {
    // A refused key or another team's mirror ends the follower, with the exit code a plain run would have.
    if (!(error instanceof SyncAbortedError)) throw error;
    if (error.message !== reported) say(error.message);
    process.exitCode = stopExitCode(error.reason);
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
}
