import { type ChildProcess, execFile, type SpawnOptions, spawn } from 'node:child_process';
import { inject } from 'vitest';

/** The path of the `vsf` bin built for this test run (see build-vsf.ts). */
export const builtVsf = (): string => inject('builtVsf');

export interface VsfResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `vsf` as staff would: a separate Node process, its exit code, stdout and stderr. */
export function runVsf(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string; timeoutMs?: number } = {},
): Promise<VsfResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [builtVsf(), ...args],
      { env: options.env ?? process.env, cwd: options.cwd, timeout: options.timeoutMs ?? 60_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

/** Starts the built `vsf` without waiting for it (for tests that kill it part-way). */
export function spawnVsf(args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  return spawn(process.execPath, [builtVsf(), ...args], options);
}
