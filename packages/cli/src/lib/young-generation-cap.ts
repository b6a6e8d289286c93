import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

const MB = 1024 * 1024;

/** Both semi-spaces of V8's young generation, as `new_space` reports them. */
export function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * Lets V8's young generation grow as usual (doubling as objects survive its collections) until each
 * semi-space holds `maxSemiSpaceMb`, then stops the growth: `--max-semi-space-size` for a process that
 * is already running, where V8 reads that flag only at start-up. The growth factor is read each time
 * the young generation grows, so setting it to 1 once the size is reached holds it there.
 *
 * Why a command line tool wants this: V8's limit is 16 MB a semi-space, sized for throughput, and a
 * full sync of 100 000 cars grows to it. Node's fetch registers every Response with a FinalizationRegistry,
 * whose targets a scavenge keeps alive, so each request's objects outlive a scavenge or two (~0.9 MB
 * survived each scavenge of a sync; ~0.2 MB with a fetch built on node:http), and V8 grows the young generation
 * by what survives. The larger it is, the rarer its scavenges, and the more dead network buffers wait for
 * one: ~30 MB of peak RSS for a process whose live heap is ~10 MB. The library cannot set this for its
 * host; the CLI owns its process.
 */
export function capYoungGeneration(maxSemiSpaceMb: number): void {
  const limit = 2 * maxSemiSpaceMb * MB;
  if (youngGenerationBytes() >= limit) {
    setFlagsFromString('--semi-space-growth-factor=1');
    return;
  }
  setFlagsFromString('--semi-space-growth-factor=2');
  // Checked after each collection: the young generation grows at most once a collection, and only
  // after many of them, so it never passes the limit by more than one doubling.
  const observer = new PerformanceObserver(() => {
    if (youngGenerationBytes() < limit) return;
    setFlagsFromString('--semi-space-growth-factor=1');
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
