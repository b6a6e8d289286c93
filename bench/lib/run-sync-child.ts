import { join } from 'node:path';
import { bundle } from './bundle.js';
import { outputOf, peakRss, ROOT, spawnTs } from './child-process.js';
import type { SyncChildResult } from './sync-child.js';

export interface SyncChildRun extends SyncChildResult {
  /** Largest RSS the parent saw while sampling every 50 ms (a cross-check of the child's own VmHWM). */
  sampledPeakRssBytes: number;
}

let bundled: Promise<string> | undefined;

/** Runs lib/sync-child.ts, bundled as the published packages are, and returns what it measured about itself. */
export async function runSyncChild(args: {
  source: 'http' | 'direct' | 'idle';
  sinkUrl: string;
  databaseUrl: string;
  teamId: string;
  baseUrl: string;
  apiKey: string;
}): Promise<SyncChildRun> {
  bundled ??= bundle('bench/lib/sync-child.ts', join(ROOT, 'bench/.build'));
  const child = spawnTs(
    await bundled,
    [args.source, args.sinkUrl, args.databaseUrl, args.teamId, args.baseUrl, args.apiKey],
    {},
    'pipe',
  );
  let sampled = 0;
  const sampler = setInterval(() => {
    try {
      sampled = Math.max(sampled, peakRss(child.pid!));
    } catch {
      // The child has just exited; its own report has the final figure.
    }
  }, 50);
  const { code, stdout, stderr } = await outputOf(child);
  clearInterval(sampler);
  if (code !== 0) throw new Error(`sync child (${args.source} → ${args.sinkUrl}) exited ${code}:\n${stderr}`);
  const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as SyncChildResult;
  return { ...result, sampledPeakRssBytes: Math.max(sampled, result.peakRssBytes) };
}
