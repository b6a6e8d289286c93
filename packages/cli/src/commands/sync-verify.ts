import { type ResourceVerification, sdkPageSource, verify } from '@vsf/sync';
import type { Command } from 'commander';
import { createClient } from '../lib/context.js';
import { responseTimeoutMs, SYNC_RESPONSE_TIMEOUT_MS } from '../lib/network-wait.js';
import { seconds, wholeNumber } from '../lib/option-parsers.js';
import { columns, printJson, renderTable } from '../lib/output.js';
import {
  addMirrorFlags,
  describeRetries,
  type MirrorFlags,
  retryOptions,
  subcommandAction,
  withMirror,
} from '../lib/sync-flags.js';
import { runError, runExitCode, warnStopped } from '../lib/sync-outcome.js';

interface VerifyFlags extends MirrorFlags {
  lookback: number;
  maxIds: number;
}

const verifyColumns = columns<ResourceVerification>({
  RESOURCE: 'resource',
  STATUS: 'status',
  SERVER: 'serverCount',
  MIRROR: 'mirrorCount',
  MISSING: (r) => r.missing.count,
  EXTRA: (r) => r.extra.count,
  DIFFERENT: (r) => r.different.count,
  PENDING: 'pending',
  ERROR: (r) =>
    r.error ??
    (r.status === 'skipped'
      ? ''
      : !r.watermark
        ? 'never synced'
        : r.interrupted
          ? 'a run is under way or was interrupted: vsf sync resumes it'
          : ''),
});

/** The rows behind the counts, one line each, e.g. `cars: different 5c1e… (color, mileage)`. */
function driftLines(r: ResourceVerification): string[] {
  const more = (shown: number, count: number) => (count > shown ? [`${r.resource}: … and ${count - shown} more`] : []);
  return [
    ...r.missing.ids.map((id) => `${r.resource}: missing ${id}`),
    ...more(r.missing.ids.length, r.missing.count),
    ...r.extra.ids.map((id) => `${r.resource}: extra ${id}`),
    ...more(r.extra.ids.length, r.extra.count),
    ...r.different.rows.map((d) => `${r.resource}: different ${d.id} (${d.fields.join(', ')})`),
    ...more(r.different.rows.length, r.different.count),
  ];
}

export function registerSyncVerifyCommand(sync: Command): void {
  const command = sync
    .command('verify')
    .description(
      'Compare the mirror with the server, changing neither: exit 0 if they match, 1 on any drift, 4 for another team’s key',
    )
    .option(
      '--lookback <seconds>',
      'also count rows changed this long before the last sync started as pending, not drift',
      seconds,
      0,
    )
    .option('--max-ids <n>', 'ids listed per kind of drift and resource', wholeNumber(0), 20);
  addMirrorFlags(command)
    .addHelpText(
      'after',
      '\nExamples:\n  vsf sync verify                              # ./vsf-mirror.db against the server\n  vsf sync verify --to postgres://localhost/mirror --resources cars\n  vsf sync verify --json --quiet               # for monitoring: exit 1 on drift',
    )
    .action(
      subcommandAction<VerifyFlags>(async (o, globals) => {
        const client = createClient(globals, {
          responseTimeout: responseTimeoutMs(process.env, SYNC_RESPONSE_TIMEOUT_MS),
        });
        await withMirror(o.to, async (sink) => {
          const result = await verify({
            source: sdkPageSource(client),
            sink,
            resources: o.resources,
            lookbackMs: o.lookback * 1000,
            maxIds: o.maxIds,
            retry: retryOptions(o),
          });
          const exitCode = runExitCode(result, Boolean(o.resources?.length));
          if (globals.json) {
            const { error: _message, ...rest } = result;
            const error = runError(result, exitCode);
            printJson({ to: o.to, ...rest, ...(error ? { error } : {}) });
          } else if (!result.stopReason || result.resources.some((r) => r.pages > 0)) {
            process.stdout.write(renderTable(result.resources, verifyColumns));
            for (const r of result.resources) for (const line of driftLines(r)) process.stdout.write(`${line}\n`);
            if (result.retries.total > 0) process.stdout.write(`${describeRetries(result.retries)}\n`);
            if (!globals.quiet) {
              process.stderr.write(
                result.drift
                  ? 'Drift found. `vsf sync --full` fetches missing and changed rows again; with --prune it also drops extra ones.\n'
                  : result.ok
                    ? 'The mirror matches the server.\n'
                    : '',
              );
            }
          }
          warnStopped(result, globals);
          process.exitCode = exitCode;
        });
      }),
    );
}
