import { ConnectionError, type RetryNotice, TimeoutError } from '@vsf/sdk';
import { CliError, EXIT } from './exit-codes.js';
import { networkCause } from './network-cause.js';

/** Staff at the desk would rather see an operation queued in seconds than wait on a link that passes nothing. */
export const DESK_RESPONSE_TIMEOUT_MS = 4_000;

/**
 * A sync runs from cron on a server's link, where nobody waits at a desk and a page of a large team may be
 * slow to start on a busy server: a response that merely starts late must not fail the run.
 */
export const SYNC_RESPONSE_TIMEOUT_MS = 30_000;

/**
 * How long the CLI waits for a response's headers: `VSF_RESPONSE_TIMEOUT` seconds, else the command's
 * default (4 s: two attempts of 4 s each, with the retry's pause, stay under 10 s).
 */
export function responseTimeoutMs(env: NodeJS.ProcessEnv = process.env, fallback = DESK_RESPONSE_TIMEOUT_MS): number {
  const text = env.VSF_RESPONSE_TIMEOUT?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || value > 3600)
    throw new CliError(
      `VSF_RESPONSE_TIMEOUT must be a number of seconds between 0 and 3600 (e.g. 4 or 0.5), not "${text}"`,
      EXIT.usage,
    );
  return Math.round(value * 1000);
}

/**
 * The SDK's `onRetry` for a person at a terminal: a retry after a network failure prints "waiting for
 * network…" with the cause, so a dead link is not a silent pause. Off the terminal, and with --quiet, it
 * says nothing; `VSF_LOG=info` logs every retry whatever the cause.
 */
export function waitingForNetwork(options: { quiet?: boolean }, stream: NodeJS.WriteStream = process.stderr) {
  return (notice: RetryNotice): void => {
    if (options.quiet || !stream.isTTY) return;
    if (!(notice.error instanceof ConnectionError || notice.error instanceof TimeoutError)) return;
    const wait = `${Number((notice.delayMs / 1000).toFixed(1))} s`;
    stream.write(`waiting for network… (${networkCause(notice.error)}; trying again in ${wait})\n`);
  };
}
