/** The largest batch of points one instance leases from the shared store at a time (`VSF_RATE_LIMIT_LEASE`). */
export const DEFAULT_LEASE_MAX = 32;

/**
 * How many points to lease in one round trip to the shared store.
 *
 * An eighth of what the window has left, so while plenty is left one trip serves many requests, and near
 * the limit the batches shrink to 1: points leased by an instance that then stops receiving the key's
 * requests are lost to the window, so the closer to the limit, the less any one instance may hold.
 * Requests already queued on this instance for the key raise the batch to their number (they spend it at
 * once, nothing is left idle); `max` caps both. The shared store never grants more than the limit
 * whatever is asked (see leased-points.ts), so the size only trades round trips against idle points.
 *
 * `sharedRemaining` is undefined when this instance leased none of the key's points in this window or the
 * one before: then 1, and the answer tells the next lease how much is left.
 */
export function leaseSize(sharedRemaining: number | undefined, queued: number, max: number): number {
  const fromRemaining = sharedRemaining === undefined ? 1 : Math.floor(sharedRemaining / 8);
  return Math.max(1, Math.min(max, Math.max(fromRemaining, queued)));
}
