import { type ResourceSpec, selectResources } from '../../src/resources.js';
import type { Checkpoint } from '../../src/sinks/sink.js';

/** A small resource whose records the sink suites write: `locations`. */
export const locations = selectResources(['locations'])[0] as ResourceSpec;

/** A full run's checkpoint that resumes at `nextPage`. */
export const checkpoint = (nextPage: number, firstTotal: number): Checkpoint => ({
  runId: 'r1',
  mode: 'full',
  startedAt: '2026-06-01T12:00:00.000Z',
  nextPage,
  updatedAfter: null,
  firstTotal,
});

/** A location as a page carries it. */
export const locationRecord = (id: string, name = id) => ({
  id,
  name,
  isActive: true,
  updatedAt: '2026-06-01T11:00:00.000Z',
});
