import { ConnectionError, type RetryNotice, TimeoutError } from '@vsf/sdk';
import { CliError, EXIT } from './exit-codes.js';
import { networkCause } from './network-cause.js';

/**
 * How long the CLI waits for a response's headers: `VSF_RESPONSE_TIMEOUT` seconds, else 4. Staff at the
 * desk would rather see an operation queued in seconds than wait a minute on a link that passes nothing;
 * two attempts of 4 s each (with the retry's pause) stay under 10 s.
 */
export function responseTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.VSF_RESPONSE_TIMEOUT?.trim();
  if (!text) return 4_000;
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
