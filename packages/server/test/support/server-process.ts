import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const bin = join(import.meta.dirname, '../../src/bin/vsf-server.ts');

export interface ServerProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Everything it printed so far, for failure messages. */
  output(): string;
  /** SIGTERM (a graceful stop) or SIGKILL (a crash); resolves once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `vsf-server start` as an operator runs it, configured only through the environment, on a free port.
 * Resolves once it prints where it listens.
 */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  // Node itself with tsx's loader, not the `tsx` wrapper: a SIGKILL must reach the server, and the
  // wrapper cannot pass that signal on to the process it runs.
  const child = spawn(process.execPath, ['--import', 'tsx', bin, 'start'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env },
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
      if (!match) return;
      resolve({
        child,
        url: (match[1] as string).replace('localhost', '127.0.0.1'),
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
