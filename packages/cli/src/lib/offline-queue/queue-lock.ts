import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One flush at a time per queue (two terminals, or cron and a person): the idempotency keys already make a
 * double delivery harmless on the server, the lock keeps two processes from checkpointing one entry.
 * A lock left by a process that died is taken over. Returns the release function, or undefined when busy.
 */
export function tryLockQueue(dir: string): (() => void) | undefined {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, '.flush.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && alive(holder)) return undefined;
      rmSync(path, { force: true });
    }
  }
  return undefined;
}
