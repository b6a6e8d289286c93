/** A row's place in the API's list order: its `updated_at` as PostgreSQL prints it (microseconds kept) and id. */
export interface PageKey {
  at: string;
  id: string;
}

/** The nearest known anchor at or before a page: the key of the row just before page `page`. */
export interface Anchor {
  version: string;
  page: number;
  key: PageKey;
}

interface Entry {
  version: string;
  /** Page number → the key of the last row of the page before it. */
  anchors: Map<number, PageKey>;
}

/**
 * Where recent pages of each list ended, so that the next page of a walk through a list (a sync, a client
 * following pages) starts from a key instead of skipping `offset` index entries. Without it, walking n
 * pages reads O(n²) entries: a full sync of a 100 000-car team spent ~3 s of PostgreSQL's CPU in the seeks
 * alone, more than the pages themselves.
 *
 * An anchor holds only at the `version` of the team's data it was read at (team-scoped-table.ts reads the
 * version in the same statement as the page): the same version means no write of the team committed in
 * between, so the rows after the anchor are exactly the rows `OFFSET` would skip to. In memory, per
 * process: every instance learns its own anchors, and the version lives in the database.
 */
export class PageAnchors {
  private readonly entries = new Map<string, Entry>();

  constructor(
    /** Lists remembered, least recently used forgotten first. */
    private readonly maxLists = 256,
    /** Anchors kept per list: a walk needs only the last few. */
    private readonly maxAnchors = 4,
  ) {}

  /** The anchor at the greatest page not after `page`, if any. */
  nearest(list: string, page: number): Anchor | undefined {
    const entry = this.entries.get(list);
    if (!entry) return undefined;
    // Most recently used last.
    this.entries.delete(list);
    this.entries.set(list, entry);
    let best: Anchor | undefined;
    for (const [anchored, key] of entry.anchors) {
      if (anchored <= page && (!best || anchored > best.page)) best = { version: entry.version, page: anchored, key };
    }
    return best;
  }

  /** Records that page `page` of `list` starts after `key`, at `version`; another version's anchors go. */
  remember(list: string, version: string, page: number, key: PageKey): void {
    let entry = this.entries.get(list);
    if (!entry || entry.version !== version) entry = { version, anchors: new Map() };
    this.entries.delete(list);
    this.entries.set(list, entry);
    entry.anchors.delete(page);
    entry.anchors.set(page, key);
    if (entry.anchors.size > this.maxAnchors) entry.anchors.delete(entry.anchors.keys().next().value as number);
    if (this.entries.size > this.maxLists) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** The list's anchors no longer hold (its version moved on). */
  forget(list: string): void {
    this.entries.delete(list);
  }
}
