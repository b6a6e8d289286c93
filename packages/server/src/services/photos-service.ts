import { randomUUID } from 'node:crypto';
import type { createCarPhoto, EndpointBody, EndpointQuery, listCarPhotos, V1CarPhoto } from '@vsf/contract';
import { notFound, validationFailed } from '../errors/api-http-error.js';
import type { BlobStore } from '../media/blob-store.js';
import type { PublicFetchDeps } from '../media/fetch-public-image.js';
import { readImageUpload } from '../media/image-upload.js';
import { carEventsTable, type MediaRow, mediaTable } from '../repositories/facility-tables.js';
import { carsTable } from '../repositories/tables.js';
import type { ListResult } from '../repositories/team-scoped-table.js';
import type { ServiceDeps } from './service-deps.js';

export interface MediaDeps extends ServiceDeps {
  blobs: BlobStore;
  /** The network used for `sourceUrl`; tests stub it. */
  fetchDeps?: PublicFetchDeps | undefined;
}

const toPhoto = (m: MediaRow): V1CarPhoto => ({
  id: m.id,
  carId: m.carId as string,
  sessionId: m.sessionId as string,
  filename: m.filename,
  contentType: m.contentType,
  sizeBytes: m.sizeBytes,
  url: `/api/media/${m.id}`,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
});

export class PhotosService {
  constructor(private readonly deps: MediaDeps) {}

  async list(
    teamId: string,
    carId: string,
    query: EndpointQuery<typeof listCarPhotos>,
  ): Promise<ListResult<V1CarPhoto>> {
    if (!(await carsTable.exists(this.deps.db, teamId, carId))) throw notFound('Car');
    const result = await mediaTable.list(this.deps.db, teamId, query, (q) => {
      q.where({ 'media.car_id': carId, 'media.kind': 'car_photo' });
      if (query.sessionId) q.where('media.session_id', query.sessionId);
    });
    return { records: result.records.map(toPhoto), total: result.total };
  }

  async get(teamId: string, carId: string, photoId: string): Promise<V1CarPhoto> {
    if (!(await carsTable.exists(this.deps.db, teamId, carId))) throw notFound('Car');
    const row = await mediaTable
      .scoped(this.deps.db, teamId)
      .where({ 'media.id': photoId, 'media.car_id': carId, 'media.kind': 'car_photo' })
      .first();
    if (!row) throw notFound('Car photo');
    return toPhoto(mediaTable.toRecord(row));
  }

  async create(teamId: string, carId: string, body: EndpointBody<typeof createCarPhoto>): Promise<V1CarPhoto> {
    const db = this.deps.db;
    if (!(await carsTable.exists(db, teamId, carId))) throw notFound('Car');
    const session = await carEventsTable
      .scoped(db, teamId)
      .where({ 'car_events.session_id': body.sessionId, 'car_events.car_id': carId })
      .first('car_events.id');
    if (!session)
      throw validationFailed([
        { path: 'sessionId', message: 'Not a session of this car; use the sessionId of one of its events' },
      ]);

    const { bytes, contentType } = await readImageUpload(body, this.deps.fetchDeps);

    const id = randomUUID();
    const storageKey = `${teamId}/${id}`;
    await this.deps.blobs.put(storageKey, bytes);
    const row = await mediaTable.insert(
      db,
      teamId,
      {
        id,
        kind: 'car_photo',
        carId,
        sessionId: body.sessionId,
        filename: body.filename,
        contentType,
        sizeBytes: bytes.byteLength,
        storageKey,
      },
      this.deps.now(),
    );
    return toPhoto(row);
  }

  /** The team's own bytes; another team's id is as unknown as a missing one. */
  async read(teamId: string, mediaId: string): Promise<{ row: MediaRow; bytes: Uint8Array }> {
    const row = await mediaTable.findById(this.deps.db, teamId, mediaId);
    const bytes = row ? await this.deps.blobs.get(row.storageKey) : undefined;
    if (!row || !bytes) throw notFound('Media');
    return { row, bytes };
  }
}
