import { ConnectionError, TimeoutError } from '@vsf/sdk';

/**
 * The reason a request never got a response, in words (`connection refused`, `no response within 4 s`), or
 * undefined when it did.
 */
export function networkCause(error: unknown): string | undefined {
  if (error instanceof TimeoutError) {
    const ms = Number(/ after (\d+) ms/.exec(error.message)?.[1]);
    if (!Number.isFinite(ms)) return 'timed out';
    // The SDK's response timeout: nothing came back at all (a dead link), not a slow transfer.
    if (error.message.endsWith('waiting for the response')) return `no response within ${seconds(ms)}`;
    return `timed out after ${ms} ms`;
  }
  return error instanceof ConnectionError ? error.reason : undefined;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;
