import { type ValidationDetail, validationFailed } from '../errors/api-http-error.js';
import { mediaTable } from '../repositories/facility-tables.js';
import type { Executor } from '../repositories/team-scoped-table.js';

const MEDIA_PATH = /^\/api\/media\/([0-9a-f-]{36})$/i;

/**
 * Attachment URLs must be `https://` or one of the team's own media paths (`/api/media/<uuid>`): a path
 * of another team's (or no) media is refused like a malformed URL, one detail per offending entry.
 */
export async function checkTeamMediaUrls(
  db: Executor,
  teamId: string,
  urls: readonly string[],
  path = 'mediaUrls',
): Promise<void> {
  const problems: ValidationDetail[] = [];
  for (const [i, url] of urls.entries()) {
    const media = MEDIA_PATH.exec(url);
    if (media) {
      if (!(await mediaTable.exists(db, teamId, media[1] as string)))
        problems.push({ path: `${path}.${i}`, message: 'No media of this team has this id' });
    } else if (!/^https:\/\/[^\s/]+\S*$/.test(url)) {
      problems.push({ path: `${path}.${i}`, message: 'Expected an https:// URL or a /api/media/<uuid> path' });
    }
  }
  if (problems.length > 0) throw validationFailed(problems);
}
