/**
 * The photo-upload floor: one loop of bare fetch POSTs, one photo after another, the same JSON body the
 * SDK sends (`{sessionId, filename, contentType, base64}`). Prints {uploaded, durationMs}.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [baseUrl, apiKey, carId, sessionId, dir] = process.argv.slice(2) as [string, string, string, string, string];

const started = performance.now();
let uploaded = 0;
for (const filename of readdirSync(dir).sort()) {
  const body = JSON.stringify({
    sessionId,
    filename,
    contentType: 'image/jpeg',
    base64: readFileSync(join(dir, filename)).toString('base64'),
  });
  const res = await fetch(`${baseUrl}/cars/${carId}/photos`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body,
  });
  if (res.status !== 201) throw new Error(`${filename}: ${res.status} ${await res.text()}`);
  uploaded++;
}
process.stdout.write(`${JSON.stringify({ uploaded, durationMs: performance.now() - started })}\n`);
