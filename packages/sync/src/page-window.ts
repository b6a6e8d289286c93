import type { FetchedPage } from './source.js';

/** Page requests a resource keeps in flight while it writes the page before them. */
export const DEFAULT_PAGES_IN_FLIGHT = 2;

/** Whether a page ends its list: nothing follows it by its own total, or it came back empty. */
export function isLastPage(page: FetchedPage): boolean {
  return page.page * page.limit >= page.total || page.records.length === 0;
}

/**
 * What of a page the next one is checked against: its last record's `updatedAt`, and its ids. The ids
 * as an array, not a Set: the next page looks up one id, once, and the Set's hash table (rebuilt as it
 * grew) was ~2.5 % of what a 100k-car sync allocated.
 */
interface PageEdge {
  lastUpdatedAt: string;
  ids: unknown[];
}

/**
 * The pages of one list, handed out one by one in order while up to `inFlight` requests for the pages
 * after it are out, so the server works on the next pages while the sink writes this one. Only the
 * pages handed out are ever written; one still in flight when a run stops is simply fetched again.
 *
 * Requests in flight together may be answered from the server's data in any order, and a record
 * written between two such answers shifts the list (order `updatedAt` desc): the page answered
 * earlier then misses the record the shift pushed onto it, and nothing else reads it. Each request
 * here is sent only once the page `inFlight` places before it has arrived, so a write that opens such
 * a gap also comes between two pages handed out before it; the later of those then starts no later
 * than the earlier one ended. When a page does, every page requested after it is thrown away and
 * requested again, after this page's answer: as a run with one request at a time would have read them.
 */
export class PageWindow {
  private readonly pending: Promise<FetchedPage>[] = [];
  private readonly inFlight: number;
  /** The last page number requested. */
  private requested: number;
  /** The last page number known to exist (grows with the totals pages report). */
  private lastKnown: number;
  private previous: PageEdge | undefined;
  private done = false;
  /** Pages requested again after a shift was seen: for tests and progress reports. */
  refetched = 0;

  constructor(
    private readonly fetchPage: (page: number) => Promise<FetchedPage>,
    firstPage: number,
    inFlight: number = DEFAULT_PAGES_IN_FLIGHT,
  ) {
    this.inFlight = Math.max(1, Math.floor(inFlight));
    this.requested = firstPage - 1;
    // Until the first page tells the total, nothing past it is known to exist.
    this.lastKnown = firstPage;
    this.fill();
  }

  /** The next page in order; after the last one (`isLastPage`) nothing more is requested. */
  async next(): Promise<FetchedPage> {
    const head = this.pending.shift();
    if (!head || this.done) throw new Error('PageWindow: no page after the last one');
    const page = await head;
    if (this.previous && shiftedSince(this.previous, page)) this.requestAgain();
    this.previous = edgeOf(page);
    if (isLastPage(page)) {
      this.done = true;
      this.pending.length = 0;
    } else {
      this.lastKnown = Math.max(this.lastKnown, page.page + 1, Math.ceil(page.total / page.limit));
      this.fill();
    }
    return page;
  }

  private fill(): void {
    while (this.pending.length < this.inFlight && this.requested < this.lastKnown) {
      const request = this.fetchPage(++this.requested);
      // Settled when its turn comes, or dropped with the run: never an unhandled rejection meanwhile.
      request.catch(() => {});
      this.pending.push(request);
    }
  }

  private requestAgain(): void {
    this.refetched += this.pending.length;
    this.requested -= this.pending.length;
    this.pending.length = 0;
  }
}

function edgeOf(page: FetchedPage): PageEdge | undefined {
  const last = page.records.at(-1);
  if (!last) return undefined;
  return { lastUpdatedAt: String(last.updatedAt), ids: page.records.map((r) => r.id) };
}

/**
 * Whether the list moved between two pages: the first record of `page` is one the page before held, or
 * is newer than its last. Either means records were written into the list above this page in between.
 * ISO timestamps of one format compare as strings; ids are compared only for equality, as the server's
 * order of them (a database collation) need not be JavaScript's.
 */
function shiftedSince(before: PageEdge, page: FetchedPage): boolean {
  const first = page.records[0];
  if (!first) return false;
  return String(first.updatedAt) > before.lastUpdatedAt || before.ids.includes(first.id);
}
