import { z } from '../zod.js';

/** `/api/media/<uuid>`: bytes the team stored with this API (a photo or a marketing asset). */
export const MEDIA_PATH = /^\/api\/media\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * A media reference in a message or post: a public `https://` URL, or a team-owned `/api/media/<uuid>` path.
 * The schema checks the form; the server checks that a media path belongs to the caller's team.
 */
export const MediaUrl = z
  .string()
  .refine((value) => MEDIA_PATH.test(value) || isHttpsUrl(value), {
    message: 'Expected an https:// URL or a /api/media/<uuid> path',
  })
  .openapi({ example: 'https://cdn.example.com/spring-open-house.jpg' });

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

/** The media id of a `/api/media/<uuid>` reference, or undefined for an external URL. */
export function mediaIdOf(reference: string): string | undefined {
  return MEDIA_PATH.exec(reference)?.[1]?.toLowerCase();
}
