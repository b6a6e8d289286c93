import type { BenchDatabase } from './database.js';
import type { ReferenceServer } from './reference-server.js';

/** What every benchmark gets: the fresh database, the running server and the seeded teams. */
export interface BenchContext {
  db: BenchDatabase;
  server: ReferenceServer;
  /** 100 000 cars. */
  big: SeededTeam;
  /** 1 000 cars. */
  small: SeededTeam;
  /** Scratch directory for this run (mirrors, photos). */
  tmp: string;
  log(message: string): void;
}

export interface SeededTeam {
  teamId: string;
  key: string;
  cars: number;
}
