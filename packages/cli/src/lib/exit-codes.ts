/**
 * Exit codes, as `gh` uses them: scripts can tell a bad invocation, an unreachable server, a key problem or
 * a mirror held by another run from a failure. This table is the one source: `EXIT` is read from it, a
 * `--json` error document's `code` is its `error`, and the package README's table is tested against it.
 */
export const EXIT_CODES = {
  ok: { code: 0, error: null, meaning: 'success (`sync verify`: the mirror matches the server)' },
  failure: {
    code: 1,
    error: 'failed',
    meaning:
      'failure: the server refused, a record was not found, the server refused a photo, a sync resource failed or the run was stopped, `sync verify` found drift',
  },
  usage: {
    code: 2,
    error: 'usage',
    meaning:
      'usage error: unknown command or flag, a `--set` value that does not fit its field, an ambiguous car, an unknown `--resources` name, a `--to` that is no mirror, a photo file that cannot be sent, a drop-off or pick-up that repeats the car’s state without `--force`',
  },
  network: {
    code: 3,
    error: 'unreachable',
    meaning: 'the server could not be reached (connection refused or reset, DNS failure, timeout)',
  },
  auth: {
    code: 4,
    error: 'auth',
    meaning:
      'authentication or permission problem: the key is invalid, expired or revoked, lacks a scope, or reads another team than the mirror holds',
  },
  locked: { code: 5, error: 'locked', meaning: 'the mirror is locked by another `vsf sync` run; nothing was done' },
  interrupted: {
    code: 130,
    error: 'interrupted',
    meaning:
      'stopped with Ctrl-C (128 + SIGINT, as shells report it): a drop-off, pick-up or upload queued what the server had not confirmed (`vsf queue list`)',
  },
} as const;

export type ExitName = keyof typeof EXIT_CODES;

/** `EXIT.auth === 4`: the codes by name. */
export const EXIT = Object.fromEntries(Object.entries(EXIT_CODES).map(([name, { code }]) => [name, code])) as {
  readonly [K in ExitName]: (typeof EXIT_CODES)[K]['code'];
};

/** The `code` of a `--json` error document for an exit code (`3` → `unreachable`). */
export function errorCodeOf(exitCode: number): string {
  return Object.values(EXIT_CODES).find((entry) => entry.code === exitCode)?.error ?? EXIT_CODES.failure.error;
}

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
