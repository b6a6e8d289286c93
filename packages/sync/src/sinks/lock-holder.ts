import { hostname } from 'node:os';
import { isoTime } from '../iso-time.js';
import { processAlive } from './process-alive.js';
import { type LockHolder, SyncLockedError } from './sink.js';

/** A sink's lock as it stores it: who took it, where, and when (ISO). */
export interface StoredLock {
  owner: string;
  pid: number;
  host: string;
  since: string;
}

/**
 * Whether the lock's holder ran on this machine and its process is gone: a run killed there (SIGKILL, OOM,
 * reboot) cannot release its lock, so the next run takes it over.
 */
export function heldByDeadProcess(lock: { pid: number; host: string }): boolean {
  return lock.host === hostname() && !processAlive(lock.pid);
}

/** Who holds a stored lock, and whether it is stale. */
export function lockHolder(lock: StoredLock): LockHolder {
  return { owner: lock.owner, pid: lock.pid, host: lock.host, since: lock.since, stale: heldByDeadProcess(lock) };
}

/** The lock this process takes, as a sink stores it. */
export function thisProcessLock(owner: string): StoredLock {
  return { owner, pid: process.pid, host: hostname(), since: isoTime() };
}

/** The refusal of a lock that a live process holds, naming the holder (and, after `where`, the lock's place). */
export function lockedBy(lock: StoredLock, where = ''): SyncLockedError {
  return new SyncLockedError(`${lock.owner}, pid ${lock.pid} on ${lock.host}, since ${lock.since}${where}`);
}
