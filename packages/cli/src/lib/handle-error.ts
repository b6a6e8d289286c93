import { AuthenticationError, PermissionDeniedError, VsfError } from '@vsf/sdk';
import { CommanderError } from 'commander';
import { CliError, EXIT, errorCodeOf } from './exit-codes.js';
import { networkCause } from './network-cause.js';

/**
 * An API error as the user needs it: the server's message, then each field problem (`details[].path: message`)
 * so "Validation failed" never stands alone, then the request id to quote.
 */
export function formatApiError(error: VsfError, indent = '  '): string {
  const details = Array.isArray(error.details)
    ? (error.details as { path?: unknown; message?: unknown }[])
        .filter((d) => d && typeof d === 'object' && d.message !== undefined)
        .map((d) => `\n${indent}${String(d.path ?? '') || '(body)'}: ${String(d.message)}`)
        .join('')
    : '';
  return `${error.message}${error.requestId ? ` (request ${error.requestId})` : ''}${details}`;
}

/** The hint for a server that cannot be reached; it names where the URL comes from, the usual culprit. */
export function unreachableMessage(cause: string, baseUrl: string | undefined): string {
  return `cannot reach ${baseUrl ?? 'the API'}: ${cause} — is the server running? check --base-url / VSF_BASE_URL`;
}

/** One message for the user and the exit code that matches the failure. */
export function describeError(error: unknown, baseUrl?: string): { message: string; exitCode: number } {
  if (error instanceof CliError) return { message: error.message, exitCode: error.exitCode };
  if (error instanceof CommanderError)
    return { message: error.message, exitCode: error.exitCode === 0 ? 0 : EXIT.usage };
  const cause = networkCause(error);
  if (cause) return { message: unreachableMessage(cause, baseUrl), exitCode: EXIT.network };
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError)
    return { message: formatApiError(error), exitCode: EXIT.auth };
  if (error instanceof VsfError) return { message: formatApiError(error), exitCode: EXIT.failure };
  return { message: (error as Error)?.message ?? String(error), exitCode: EXIT.failure };
}

/**
 * The one `--json` document of a command that failed, so `vsf … --json | jq` always has JSON to read:
 * `{"error": {"code": "unreachable", "message": "…", "exitCode": 3}}`, with the HTTP `status` and
 * `requestId` when the server answered. `code` is the exit code's name in the table (exit-codes.ts).
 */
export interface ErrorDocument {
  error: { code: string; message: string; exitCode: number; status?: number; requestId?: string };
}

export function errorDocument(message: string, exitCode: number, error?: unknown): ErrorDocument {
  const api = error instanceof VsfError ? error : undefined;
  return {
    error: {
      code: errorCodeOf(exitCode),
      message,
      exitCode,
      ...(api?.status !== undefined ? { status: api.status } : {}),
      ...(api?.requestId ? { requestId: api.requestId } : {}),
    },
  };
}
