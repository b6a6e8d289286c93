/** How long the server waits on a request body, the one part of a request a slow network stretches. */
export interface BodyTimeouts {
  /**
   * A body the server reads (after authentication and scopes) is given up after this long without a byte:
   * 408 `request_timeout`. Progress, not size, decides: a 3 MiB photo over a poor mobile uplink takes minutes.
   */
  idleMs: number;
  /** And after this long in all, however it trickles (a 4 MiB base64 photo at 8 KiB/s takes ~9 minutes). */
  deadlineMs: number;
  /**
   * A body the server never reads (the request was refused before it, or its route takes none) is cut off
   * this long after the request arrived: an unauthenticated client cannot hold a connection by trickling.
   */
  unclaimedMs: number;
}

export const DEFAULT_BODY_TIMEOUTS: BodyTimeouts = { idleMs: 60_000, deadlineMs: 15 * 60_000, unclaimedMs: 30_000 };
