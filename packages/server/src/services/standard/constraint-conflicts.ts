import { conflict } from '../../errors/api-http-error.js';

/** PostgreSQL's codes for the two constraints a team's write can meet; PGlite reports the same. */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

/** What to tell the caller when a write meets a constraint: the messages name the way out. */
export interface ConflictMessages {
  /** A unique key the write would duplicate (a spot's name, an invite's customer). */
  readonly duplicate?: string | undefined;
  /** A delete of a record other records still point at. */
  readonly inUse?: string | undefined;
}

/**
 * Runs a write and answers its constraint violations as 409s with the resource's own words. Errors without
 * a message here (and every other error) pass through unchanged, so a missed case is a 500, not a lie.
 */
export async function mapConflicts<T>(messages: ConflictMessages, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === UNIQUE_VIOLATION && messages.duplicate) throw conflict(messages.duplicate);
    if (code === FOREIGN_KEY_VIOLATION && messages.inUse) throw conflict(messages.inUse);
    throw error;
  }
}
