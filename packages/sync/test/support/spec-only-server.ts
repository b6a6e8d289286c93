import type { ResourceSpec } from '../../src/resources.js';
import type { FetchedPage, PageRequest, PageSource } from '../../src/source.js';

/**
 * A server that implements only the spec's list rules (order updatedAt desc, id desc; inclusive
 * updatedAfter; page/limit/total) with a clock of its own, independent of the client's.
 */
export class SpecOnlyServer implements PageSource {
  records = new Map<string, Record<string, unknown>>();
  serverNow = Date.parse('2026-06-01T12:00:00Z');
  /** Called before each page is answered, to change data mid-run. */
  beforePage: (request: PageRequest) => void = () => {};

  tick(ms = 1000) {
    this.serverNow += ms;
  }

  put(id: string, fields: Record<string, unknown> = {}) {
    this.tick();
    const stamp = new Date(this.serverNow).toISOString();
    const existing = this.records.get(id);
    this.records.set(id, {
      id,
      teamId: 't',
      name: `Location ${id}`,
      address: null,
      city: null,
      state: null,
      zip: null,
      phone: null,
      timezone: null,
      isActive: true,
      sortOrder: null,
      createdAt: existing?.createdAt ?? stamp,
      updatedAt: stamp,
      ...fields,
    });
  }

  async fetchPage(_resource: ResourceSpec, request: PageRequest): Promise<FetchedPage> {
    this.beforePage(request);
    const after = request.updatedAfter ? Date.parse(request.updatedAfter) : undefined;
    const matching = [...this.records.values()]
      .filter((r) => after === undefined || Date.parse(r.updatedAt as string) >= after)
      .sort(
        (a, b) => String(b.updatedAt).localeCompare(String(a.updatedAt)) || String(b.id).localeCompare(String(a.id)),
      );
    const start = (request.page - 1) * request.limit;
    // HTTP Date headers have whole seconds.
    const serverDate = new Date(Math.floor(this.serverNow / 1000) * 1000);
    return {
      records: matching.slice(start, start + request.limit),
      page: request.page,
      limit: request.limit,
      total: matching.length,
      serverDate,
    };
  }
}
