import { ALL_SCOPES } from '@vsf/contract';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../src/testing/index.js';
import { type ApiCaller, apiCaller } from './support/api-caller.js';
import { teamServer } from './support/team-server.js';
import { snapshotTeamData } from './support/team-snapshot.js';

// The "changed nothing" helper the refusal suites lean on: it must see every kind of change to the team's
// rows, in any column, and none of another team's or of a read.
let server: TestServer;
let api: ApiCaller;
let teamId: string;

teamServer((team) => {
  ({ server, api, teamId } = team);
});

describe('snapshotTeamData', () => {
  it('changes with an insert, an update of any one column and a delete; not with reads or another team', async () => {
    const snap = () => snapshotTeamData(server.db, teamId);
    const empty = await snap();
    expect(empty.cars).toEqual({ rows: 0, md5: expect.stringMatching(/^[0-9a-f]{32}$/) });

    const car = (await api('POST', '/cars', { body: { year: 2003, make: 'BMW', model: 'Z4' } })).body.data;
    const created = await snap();
    expect(created.cars?.rows).toBe(1);
    expect(created.cars).not.toEqual(empty.cars);

    await api('GET', `/cars/${car.id}`);
    await api('GET', '/cars');
    expect(await snap()).toEqual(created);

    // Changes the API would not make, written behind the server's back: one column, same length; a delete.
    await server.db('cars').where({ id: car.id }).update({ model: 'Z3' });
    const edited = await snap();
    expect(edited.cars?.rows).toBe(1);
    expect(edited.cars).not.toEqual(created.cars);

    const other = await server.createTeamWithKey(ALL_SCOPES);
    const theirs = apiCaller(server.baseUrl, other.key);
    expect((await theirs('POST', '/cars', { body: { year: 2003, make: 'BMW', model: 'Z4' } })).status).toBe(201);
    expect(await snap()).toEqual(edited);

    await server.db('cars').where({ id: car.id }).del();
    const deleted = await snap();
    expect(deleted.cars).toEqual(empty.cars);
    expect(deleted).not.toEqual(edited);
  });
});
