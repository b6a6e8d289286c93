import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const bin = join(import.meta.dirname, '../../src/bin/vsf-server.ts');

export interface ServerProcess {
  child: ChildProcess;
  /** Where it says it listens: `http://127.0.0.1:<port>` unless the test set HOST. */
  url: string;
  /** Everything it printed so far, for failure messages. */
  output(): string;
  /** SIGTERM (a graceful stop) or SIGKILL (a crash); resolves once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ServerProcessOptions {
  /** After `start`: `--demo`, `--no-demo`. */
  args?: string[];
}

/**
 * `vsf-server start [args]` as an operator runs it, configured only through the environment, on a free port.
 * `undefined` in `env` unsets a variable this process has, for tests of what the server does without it.
 * Resolves once it has printed its banner, through the Admin line: tests read what it says there.
 */
export function startServerProcess(
  env: Record<string, string | undefined>,
  { args = [] }: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const merged = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env };
  // Node itself with tsx's loader, not the tsx wrapper, which cannot pass a SIGKILL on to the server.
  const child = spawn(process.execPath, ['--import', 'tsx', bin, 'start', ...args], {
    env: Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match || !/Admin:.*\n/.test(output)) return;
      resolve({
        child,
        url: match[1] as string,
        output: () => output,
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then(({ code }) => reject(new Error(`vsf-server exited with ${code} before listening:\n${output}`)));
  });
}
