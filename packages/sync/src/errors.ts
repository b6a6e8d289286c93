/** A bad option given to the sync (an unknown resource, a sink URL it cannot open): fix the call. */
export class SyncUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SyncUsageError';
  }
}
