import { AuthenticationError, PermissionDeniedError, VsfError } from '@vsf/sdk';
import { CommanderError } from 'commander';
import { CliError, EXIT } from './exit-codes.js';

/** One line for the user and the exit code that matches the failure. */
export function describeError(error: unknown): { message: string; exitCode: number } {
  if (error instanceof CliError) return { message: error.message, exitCode: error.exitCode };
  if (error instanceof CommanderError)
    return { message: error.message, exitCode: error.exitCode === 0 ? 0 : EXIT.usage };
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) {
    return {
      message: `${error.message}${error.requestId ? ` (request ${error.requestId})` : ''}`,
      exitCode: EXIT.auth,
    };
  }
  if (error instanceof VsfError) {
    const details = Array.isArray(error.details)
      ? `\n${(error.details as { path: string; message: string }[]).map((d) => `  ${d.path || '(body)'}: ${d.message}`).join('\n')}`
      : '';
    return { message: `${error.message}${details}`, exitCode: EXIT.failure };
  }
  return { message: (error as Error)?.message ?? String(error), exitCode: EXIT.failure };
}
