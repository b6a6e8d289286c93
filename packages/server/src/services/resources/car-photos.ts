import { randomUUID } from 'node:crypto';
import type { createCarPhoto, EndpointBody, V1CarPhoto } from '@vsf/contract';
import { validationFailed } from '../../errors/api-http-error.js';
import { readImageUpload } from '../../media/image-upload.js';
import { carEventsTable, type MediaRow, mediaTable } from '../../repositories/facility-tables.js';
import type { MediaDeps } from '../service-deps.js';
import { TeamResource } from '../standard/team-resource.js';

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

/** A car's photos: media rows of kind `car_photo`, their bytes in the blob store. */
export class CarPhotos extends TeamResource<V1CarPhoto, MediaRow> {
  constructor(protected override readonly deps: MediaDeps) {
    super(deps, 'cars.photos', { fixed: { kind: 'car_photo' }, present: toPhoto });
  }

  override async create(teamId: string, car: unknown, payload: unknown): Promise<V1CarPhoto> {
    const body = payload as EndpointBody<typeof createCarPhoto>;
    const carId = car as string;
    await this.parents(teamId, [carId]);
    const db = this.deps.db;
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
}
