/**
 * Idle followers in a process of their own, as they would be on other machines: each polls `GET /events`
 * after the feed's head with `wait=`, polls again when answered, and never sees an event. Beside the load
 * generator in the bench's own process, a thousand fetch clients re-polling shared its event loop, and the
 * other team's latencies measured there counted the followers' own client work.
 *
 * argv: base URL, the feed's head cursor, wait seconds, and a file of keys, one per line: one follower a line.
 * Prints `following <n>` once every follower has sent its first poll; on SIGTERM stops them and prints its
 * counts as JSON on stdout.
 */
import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';

const [baseUrl, head, waitSeconds, keysFile] = process.argv.slice(2) as [string, string, string, string];
const keys = readFileSync(keysFile, 'utf8').split('\n').filter(Boolean);

const stop = new AbortController();
// Node's fetch leaves a listener on the signal per request it is given: thousands here, all ended by `stop`.
setMaxListeners(0, stop.signal);
const counts = { answered: 0, failed: 0, reset: 0, firstFailure: '' };

async function follow(key: string) {
  while (!stop.signal.aborted) {
    try {
      const res = await fetch(`${baseUrl}/events?after=${head}&wait=${waitSeconds}`, {
        headers: { authorization: `Bearer ${key}` },
        signal: stop.signal,
      });
      const body = await res.text();
      if (res.ok) counts.answered++;
      else {
        counts.failed++;
        counts.firstFailure ||= `${res.status} ${body.slice(0, 200)}`;
      }
    } catch (error) {
      if (stop.signal.aborted) continue;
      // A kept-alive connection the server closed as the client reused it (undici's "other side closed",
      // ECONNRESET): a transport race with no answer and no statement; the follower polls again at once.
      const cause = String((error as Error).cause ?? error);
      if (/other side closed|ECONNRESET/.test(cause)) counts.reset++;
      else {
        counts.failed++;
        counts.firstFailure ||= cause;
      }
    }
  }
}

const followers = keys.map(follow);
process.stderr.write(`following ${followers.length}\n`);
process.once('SIGTERM', () => {
  stop.abort();
  void Promise.all(followers).then(() => {
    process.stdout.write(`${JSON.stringify(counts)}\n`);
    process.exit(0);
  });
});
