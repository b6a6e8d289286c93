import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs an entry point in its own process (its own core, its own RSS): TypeScript through tsx, bundled
 * JavaScript (`.mjs`) with plain node.
 */
export function spawnTs(script: string, args: string[], env: NodeJS.ProcessEnv, stdout: 'ignore' | 'pipe' = 'ignore') {
  const loader = script.endsWith('.mjs') ? [] : ['--import', 'tsx'];
  return spawn(process.execPath, [...loader, script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, 'pipe'],
  });
}

/** Resolves with the first match of `pattern` in the child's stderr; rejects if it exits first. */
export function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs = 60_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => fail(new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${seen}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) {
        cleanup();
        resolve(match);
      }
    };
    const onExit = (code: number | null) => fail(new Error(`process exited (${code}) before ${pattern}:\n${seen}`));
    const cleanup = () => {
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
    };
    const fail = (error: Error) => {
      cleanup();
      reject(error);
    };
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Peak resident set size of a live process (Linux `VmHWM`), in bytes. */
export function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  if (!match) throw new Error(`no VmHWM in /proc/${pid}/status; peak RSS needs Linux`);
  return Number(match[1]) * 1024;
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Everything a child printed, once it has exited and its output is closed (`close`, not `exit`). */
export function outputOf(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('close', (code: number | null) => resolve({ code, stdout, stderr })));
}
