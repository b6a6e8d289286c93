import { type ResourceSpec, syncableResources } from './resources.js';
import { classifyFailure } from './retry/classify-failure.js';
import { type RunRetries, SyncAbortedError } from './retry/run-retries.js';
import type { MirrorReader } from './sinks/sink.js';
import type { PageSource } from './source.js';

/** A page of another team's records than the mirror holds: written beside them, two teams' data would mix. */
export class SyncTeamMismatchError extends SyncAbortedError {
  constructor(
    readonly mirrorTeam: string,
    readonly keyTeam: string,
    /** What to do about it; a sync's advice by default. */
    hint = `sync team ${keyTeam} into a mirror of its own (another SQLite file, JSONL directory or PostgreSQL schema)`,
  ) {
    super(
      `This mirror holds team ${mirrorTeam}'s records, but this API key reads team ${keyTeam}'s: ${hint}`,
      'team-mismatch',
    );
    this.name = 'SyncTeamMismatchError';
  }
}

/**
 * The one team a mirror holds. The mirror keeps no note of it: every record of the spec carries its
 * `teamId`, so it is read from a mirrored row, once, or for an empty mirror taken from the first records
 * written, so that one run cannot mix two teams either.
 */
export class MirrorTeam {
  /** The run's resources, then the others: the team may be in either. */
  private readonly lookIn: readonly ResourceSpec[];
  private mirrored: Promise<string | undefined> | undefined;
  private team: string | undefined;
  /** The key's team, once a record showed it; undefined when none it can list has one. */
  private keyTeam: Promise<string | undefined> | undefined;

  constructor(
    private readonly mirror: MirrorReader,
    /** The run's resources; a run of a few may follow one of all, so the others are looked in too. */
    resources: readonly ResourceSpec[],
    private readonly source: PageSource,
    /** Stopped on a refusal: every later page of the key's team would be refused the same way. */
    private readonly retries?: RunRetries,
    /** Advice for a key of another team (see SyncTeamMismatchError); a sync's by default. */
    private readonly mismatchHint?: (mirrorTeam: string, keyTeam: string) => string,
  ) {
    this.lookIn = [...resources, ...syncableResources().filter((r) => !resources.some((s) => s.name === r.name))];
  }

  /** Resolves when the records may be written: every one with a `teamId` is the mirror's team's. */
  async admit(records: readonly Record<string, unknown>[]): Promise<void> {
    const teams = new Set<string>();
    for (const record of records) if (typeof record.teamId === 'string') teams.add(record.teamId);
    // A read that failed is tried again by the next page: a follower outlives a blip of its database.
    this.mirrored ??= this.readTeam().catch((error) => {
      this.mirrored = undefined;
      throw error;
    });
    const mirrored = await this.mirrored;
    if (teams.size === 0) {
      // An empty page still moves a watermark or a feed cursor, and completes a run that may prune: in
      // another team's mirror that loses its changes or rows. So the key's team is learnt first.
      if (mirrored === undefined) return;
      this.keyTeam ??= this.probeKeyTeam().catch((error) => {
        this.keyTeam = undefined;
        throw error;
      });
      const team = await this.keyTeam;
      if (team === undefined) return;
      teams.add(team);
    } else {
      this.keyTeam ??= Promise.resolve([...teams][0]);
    }
    // After the await, so that of two resources' first pages into an empty mirror, one team wins.
    this.team ??= mirrored ?? ([...teams][0] as string);
    const other = [...teams].find((team) => team !== this.team);
    if (other === undefined) return;
    const refused = new SyncTeamMismatchError(this.team, other, this.mismatchHint?.(this.team, other));
    this.retries?.abort(refused);
    throw refused;
  }

  private async readTeam(): Promise<string | undefined> {
    for (const resource of this.lookIn) {
      if (!(await this.mirror.hasMirror(resource))) continue;
      const [row] = await this.mirror.readByIds(resource, await this.mirror.idsAfter(resource, null, 1));
      if (typeof row?.teamId === 'string') return row.teamId;
    }
    return undefined;
  }

  /** One record of the first resource that has one, the run's first: whose records the key reads. */
  private async probeKeyTeam(): Promise<string | undefined> {
    // A nested list needs a parent's id: the team shows in a plain list's records.
    for (const resource of this.lookIn.filter((r) => !r.parent)) {
      const request = (signal?: AbortSignal) =>
        this.source.fetchPage(resource, { page: 1, limit: 1, includeDeleted: resource.includeDeleted, signal });
      try {
        const page = await (this.retries ? this.retries.attempt(`${resource.name} page 1`, request) : request());
        const teamId = page.records[0]?.teamId;
        if (typeof teamId === 'string') return teamId;
      } catch (error) {
        // A resource the key may not list (a missing scope) says nothing; the run's own request reports it.
        if (error instanceof SyncAbortedError || classifyFailure(error).kind !== 'fail') throw error;
      }
    }
    return undefined;
  }
}
