import { homedir } from 'node:os';
import { join } from 'node:path';

/** `$XDG_DATA_HOME/vsf/queue`, else `~/.local/share/vsf/queue`: user data that must survive reboots, not cache. */
export function queueDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME?.trim() || join(homedir(), '.local', 'share');
  return join(base, 'vsf', 'queue');
}
