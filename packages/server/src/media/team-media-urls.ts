import { mediaIdOf } from '@vsf/contract';
import { type ValidationDetail, validationFailed } from '../errors/api-http-error.js';
import { mediaTable } from '../repositories/tables.js';
import type { Executor } from '../repositories/team-scoped-table.js';

/**
 * Attachment URLs are `https://` (checked by the contract's `MediaUrl`) or the team's own media paths
 * (`/api/media/<uuid>`, checked here): another team's or unknown media is refused, one detail per entry.
 */
export async function checkTeamMediaUrls(
  db: Executor,
  teamId: string,
  urls: readonly string[] | undefined,
  path = 'mediaUrls',
): Promise<void> {
  const problems: ValidationDetail[] = [];
  for (const [i, url] of (urls ?? []).entries()) {
    const mediaId = mediaIdOf(url);
    if (mediaId && !(await mediaTable.exists(db, teamId, mediaId)))
      problems.push({ path: `${path}.${i}`, message: `${url} is not a media file of this team` });
  }
  if (problems.length > 0) throw validationFailed(problems);
}
