// Node-only helpers, kept out of the core entry so the SDK runs in any runtime with fetch.
// Importing this module also lets `client.cars.photos.upload(carId, { sessionId, file: './front.jpg' })` take paths.
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { installPathOpener } from './core/photo-file.js';

installPathOpener((path) => createReadStream(path));

/** Reads a photo from disk for `client.cars.photos.upload(carId, { sessionId, ...await photoFromPath(p) })`. */
export async function photoFromPath(path: string): Promise<{ file: Uint8Array; filename: string }> {
  return { file: new Uint8Array(await readFile(path)), filename: basename(path) };
}
