import { ConnectionError, TimeoutError } from '@vsf/sdk';

/** The reason a request never got a response, in words (`connection refused`), or undefined when it did. */
export function networkCause(error: unknown): string | undefined {
  if (error instanceof TimeoutError) return `timed out${/ after \d+ ms/.exec(error.message)?.[0] ?? ''}`;
  return error instanceof ConnectionError ? error.reason : undefined;
}
