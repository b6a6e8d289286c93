import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { capYoungGeneration } from './young-generation-cap.js';

/** How long a run keeps V8 lean before its defaults come back: most commands are over well before. */
export const LEAN_START_MS = 1000;

/**
 * The young generation's semi-spaces may grow to this many MB after start-up, not V8's 16. A full sync
 * of 100 000 cars (`--resources cars`, built bin, peak RSS) with V8's limit: SQLite 103-112 MB,
 * PostgreSQL 86-94 MB; capped at 2 MB: 91-103 and 76-95 MB. 1 MB saved no more but scavenged twice as
 * often (0.75-1.0 s of GC pauses a run against 0.4-0.5 s; V8's limit 0.3-0.55 s).
 */
export const MAX_SEMI_SPACE_MB = 2;

/**
 * How far a sync's old generation may grow past what its last full collection left, in percent. A small
 * young generation promotes more of a sync's short-lived objects (each page's response and records),
 * and with V8's own factor (up to 4x for a heap this small) that garbage waited in the old generation:
 * 20-34 MB of it at the peak. 20 %: SQLite 82-84 MB, PostgreSQL 76-79 MB (10 % and 40 % measured the same).
 */
export const SYNC_HEAP_GROWING_PERCENT = 20;

/**
 * V8 settings for a command line tool, set before any other module is evaluated (so before the first
 * request compiles fetch's HTTP parser, and before anything gets hot). Measured on `vsf sync` with
 * nothing to sync (`pnpm measure`, peak RSS):
 * - `--liftoff-only`, for the process's life: fetch parses HTTP with llhttp compiled to WebAssembly, and
 *   V8's optimizing tier for it held ~29 MB; the baseline tier parses a CLI's requests as well.
 * - no optimizing compiler (TurboFan) and no baseline compiler (Sparkplug) for JavaScript at first: Node's
 *   module loader made two of its path functions hot enough to be optimized, and the compilers' code and
 *   zones cost ~1.7 MB, of no use to a run over in a fraction of a second.
 * - a young generation that does not grow at first (V8 doubles it as startup's objects survive): ~0.9 MB.
 * After `LEAN_START_MS` the compilers come back, so a long run (`--follow`, a large full sync) is
 * optimized as usual, and the young generation may grow, up to `MAX_SEMI_SPACE_MB`.
 */
export function leanStart(): void {
  setFlagsFromString('--liftoff-only');
  setFlagsFromString('--no-opt');
  setFlagsFromString('--no-sparkplug');
  setFlagsFromString('--semi-space-growth-factor=1');
  setTimeout(() => {
    setFlagsFromString('--opt');
    setFlagsFromString('--sparkplug');
    capYoungGeneration(MAX_SEMI_SPACE_MB);
  }, LEAN_START_MS).unref();
}

/**
 * One full garbage collection, for a sync about to start its work. Loading the CLI leaves ~1.5 MB of
 * garbage in the old generation that no collection of a short run reclaims, so the sync's own objects
 * took new heap pages instead: with nothing to sync the peak is ~0.7 MB lower for this, a full sync's
 * ~1 MB lower, for ~20 ms of CPU. The heap limit this collection sets is the live size x 1.6, about
 * where V8 starts (after an early collection V8 would allow up to 4x, and a full sync then grew ~3 MB
 * further before its next one); later collections allow `SYNC_HEAP_GROWING_PERCENT`. `gc` is exposed
 * to a new context only, never to the CLI's own.
 */
export function collectStartupGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  setFlagsFromString('--no-expose-gc');
  setFlagsFromString('--heap-growing-percent=60');
  gc();
  setFlagsFromString(`--heap-growing-percent=${SYNC_HEAP_GROWING_PERCENT}`);
}
