/**
 * Exit codes, as `gh` uses them: scripts can tell a bad invocation, an unreachable server or a key problem
 * from a failure. Documented in the package README; keep the two in step.
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, network: 3, auth: 4 } as const;

/** An error whose message is for the user, with the exit code it deserves. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
