import type { StopReason } from '@vsf/sync';
import { EXIT } from './exit-codes.js';
import { type ErrorDocument, errorDocument } from './handle-error.js';

/** What `vsf sync` and `vsf sync verify` need of a run's result to say how it went. */
export interface RunOutcome {
  ok: boolean;
  error?: string | undefined;
  stopReason?: StopReason | undefined;
  resources: readonly { resource: string; status: string; error?: string | undefined }[];
}

/** A stopped run's exit code: the server down is 3, a key refused or of another team than the mirror 4. */
export function stopExitCode(reason: StopReason): number {
  if (reason === 'unreachable') return EXIT.network;
  if (reason === 'key-refused' || reason === 'team-mismatch') return EXIT.auth;
  return EXIT.failure;
}

/**
 * The exit code of a run, from the one table. A resource the key may not read is skipped, not failed: a
 * least-privilege key mirrors what it may, exit 0. It is exit 4 only when nothing could be read, or when
 * `--resources` named it (naming a resource says the mirror needs it; the default run means "what this
 * key reads").
 */
export function runExitCode(result: RunOutcome, named: boolean): number {
  if (result.stopReason) return stopExitCode(result.stopReason);
  if (!result.ok) return EXIT.failure;
  const forbidden = result.resources.filter((r) => r.status === 'forbidden');
  if (forbidden.length > 0 && (named || forbidden.length === result.resources.length)) return EXIT.auth;
  return EXIT.ok;
}

/**
 * One line for the resources the key may not read, e.g. `this key may not read 18 of 21 resources (it
 * lacks read:customers, read:campaigns): skipped customers, contacts, …`; undefined when it reads them all.
 */
export function forbiddenWarning(result: RunOutcome): string | undefined {
  const forbidden = result.resources.filter((r) => r.status === 'forbidden');
  if (forbidden.length === 0) return undefined;
  const scopes = [...new Set(forbidden.flatMap((r) => r.error?.match(/\bread:[\w-]+/g) ?? []))];
  const lacks = scopes.length > 0 ? ` (it lacks ${scopes.join(', ')})` : '';
  const fix =
    scopes.length > 0 ? 'a key with those scopes mirrors them too' : 'a key with their read scopes mirrors them too';
  return `this key may not read ${forbidden.length} of ${result.resources.length} resources${lacks}: skipped ${forbidden.map((r) => r.resource).join(', ')}; ${fix}`;
}

/**
 * On stderr: why a run stopped early (even with `--json`: cron mails stderr), and the resources the key may
 * not read, a note rather than an error, which `--quiet` (cron) drops: the summary still lists them as forbidden.
 */
export function warnStopped(result: RunOutcome, options: { quiet?: boolean }): void {
  if (result.error) process.stderr.write(`vsf: ${result.error}\n`);
  const forbidden = forbiddenWarning(result);
  if (forbidden && !options.quiet) process.stderr.write(`vsf: ${forbidden}\n`);
}

/** The `error` of a run's `--json` summary when it exits non-zero: the shape every `--json` failure has. */
export function runError(result: RunOutcome, exitCode: number): ErrorDocument['error'] | undefined {
  if (exitCode === EXIT.ok) return undefined;
  const names = (status: string) =>
    result.resources
      .filter((r) => r.status === status)
      .map((r) => r.resource)
      .join(', ');
  const failed = names('failed');
  const drift = names('drift');
  const message =
    result.error ??
    (failed
      ? `${failed} failed (see resources[].error); the next vsf sync tries again`
      : drift
        ? `the mirror differs from the server in ${drift}: \`vsf sync --full\` fetches missing and changed rows again, with --prune it also drops extra ones`
        : (forbiddenWarning(result) ?? 'the run failed'));
  return errorDocument(message, exitCode).error;
}
