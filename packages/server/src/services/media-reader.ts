import { notFound } from '../errors/api-http-error.js';
import { type MediaRow, mediaTable } from '../repositories/tables.js';
import type { MediaDeps } from './service-deps.js';

/** Reads stored media (car photos, marketing assets) by id for `GET /api/media/{mediaId}`. */
export class MediaReader {
  constructor(private readonly deps: MediaDeps) {}

  /** The team's own bytes; another team's id is as unknown as a missing one. */
  async read(teamId: string, mediaId: string): Promise<{ row: MediaRow; bytes: Uint8Array }> {
    const row = await mediaTable.findById(this.deps.db, teamId, mediaId);
    const bytes = row ? await this.deps.blobs.get(row.storageKey) : undefined;
    if (!row || !bytes) throw notFound('Media');
    return { row, bytes };
  }
}
