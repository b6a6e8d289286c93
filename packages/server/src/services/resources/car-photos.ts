import { randomUUID } from 'node:crypto';
import type { createCarPhoto, EndpointBody, V1CarPhoto } from '@vsf/contract';
import { validationFailed } from '../../errors/api-http-error.js';
import { readImageUpload } from '../../media/image-upload.js';
import { storeThenRecord } from '../../media/stored-blob.js';
import { appointmentsTable, carEventsTable, type MediaRow, mediaTable } from '../../repositories/tables.js';
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
    const [carId] = (await this.parents(teamId, [car])) as [string];
    const body = payload as EndpointBody<typeof createCarPhoto>;
    await this.requireSession(teamId, carId, body.sessionId);
    const { bytes, contentType } = await readImageUpload(body, this.deps.fetchDeps);
    const id = randomUUID();
    const storageKey = `${teamId}/${id}`;
    const values = { id, carId, sessionId: body.sessionId, filename: body.filename, contentType, storageKey };
    const row = await storeThenRecord(this.deps.blobs, storageKey, bytes, () =>
      mediaTable.insert(
        this.deps.db,
        teamId,
        { ...values, kind: 'car_photo', sizeBytes: bytes.byteLength },
        this.deps.now(),
      ),
    );
    return toPhoto(row);
  }

  /**
   * A photo joins a session of this car: one of its events', or that of an appointment for it (the spec:
   * an appointment's "event session is ready for staff"), once the appointment names the car.
   */
  private async requireSession(teamId: string, carId: string, sessionId: string): Promise<void> {
    const db = this.deps.db;
    const ofCar = { sessionId, carId };
    const found =
      (await carEventsTable
        .scoped(db, teamId)
        .where(columns(carEventsTable, ofCar))
        .first(carEventsTable.column('id'))) ??
      (await appointmentsTable
        .scoped(db, teamId)
        .where(columns(appointmentsTable, ofCar))
        .first(appointmentsTable.column('id')));
    if (!found)
      throw validationFailed([
        {
          path: 'sessionId',
          message:
            'Not a session of this car; use the sessionId of one of its events, or of an appointment for this car (set its carId first)',
        },
      ]);
  }
}

/** `{field: value}` as a where clause on the table's columns. */
function columns<Row>(
  table: { column: (field: keyof Row & string) => string },
  values: Partial<Record<keyof Row & string, string>>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([field, value]) => [table.column(field as keyof Row & string), value as string]),
  );
}
