import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENDPOINT_NAMES_FILE, endpointNamesSource } from '../scripts/endpoint-names.js';
import * as contract from '../src/index.js';

describe('src/generated/endpoints.ts', () => {
  it('matches the endpoint modules (run `pnpm generate` if this fails)', async () => {
    const onDisk = readFileSync(new URL(`../${ENDPOINT_NAMES_FILE}`, import.meta.url), 'utf8');
    expect(onDisk).toBe(await endpointNamesSource());
  });

  it('names every endpoint of both surfaces under its operation id, as the package exports it', () => {
    const exported = contract as unknown as Record<string, unknown>;
    for (const [id, endpoint] of Object.entries({ ...contract.apiEndpoints, ...contract.adminEndpoints })) {
      expect(exported[id], id).toBe(endpoint);
    }
  });
});
