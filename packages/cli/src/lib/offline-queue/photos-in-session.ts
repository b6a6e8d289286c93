import type { VsfClient } from '@vsf/sdk';
import type { QueuedPhoto } from './queue-entry.js';
import { sha256 } from './queue-store.js';

/** The media id of a photo's `url` (`/api/media/<id>`). */
const mediaId = (url: string) => url.split('/').filter(Boolean).pop() ?? '';

/**
 * Marks the photos the session holds already, as rclone skips files that are there: same file name and size
 * in the listing, then the same bytes. The API gives no digest, so a candidate's bytes are downloaded (at
 * most 3 MiB, and only for a name and size that match) and their sha256 compared with the photo's. A
 * marked photo gets the existing photo's id and is never sent. Returns the photos marked.
 */
export async function markPhotosInSession(
  client: VsfClient,
  carId: string,
  sessionId: string,
  photos: QueuedPhoto[],
): Promise<QueuedPhoto[]> {
  const marked: QueuedPhoto[] = [];
  const pending = photos.filter((p) => !p.photoId && !p.refused);
  if (pending.length === 0) return marked;
  const claimed = new Set(photos.map((p) => p.photoId).filter(Boolean));
  for await (const existing of client.cars.photos.listAll(carId, { sessionId })) {
    if (claimed.has(existing.id)) continue;
    const candidates = pending.filter(
      (p) => !p.photoId && p.filename === existing.filename && p.size === existing.sizeBytes,
    );
    if (candidates.length === 0) continue;
    const response = await client.media.download(mediaId(existing.url));
    const digest = sha256(new Uint8Array(await response.arrayBuffer()));
    const same = candidates.find((p) => p.sha256 === digest);
    if (!same) continue;
    same.photoId = existing.id;
    same.alreadyInSession = true;
    claimed.add(existing.id);
    marked.push(same);
  }
  return marked;
}
