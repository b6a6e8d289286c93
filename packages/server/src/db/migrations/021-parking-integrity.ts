import type { Knex } from 'knex';

const ACTIVE = (alias: string) =>
  `exists (select 1 from parking_assignments a where a.car_id = ${alias}.id and a.ended_at is null)`;

/**
 * A car's parking fields could be written unchecked by `POST/PATCH /cars`: another team's spot, a deleted
 * one, or a spot another car holds. First the data is made consistent, then the database itself makes
 * those states impossible, whichever code path writes:
 * - a car's spot and zone are its own team's (composite foreign keys on `(team_id, id)`);
 * - a spot is named by at most one car (a unique index; spots and stays already had theirs).
 *
 * Repair, keeping every placement the rules would have accepted: a car's active stay (written under the
 * rules) wins over its fields; fields naming no record of the car's team are cleared; of cars claiming one
 * free spot without a stay, the first created gets it with a stay starting at its last update, the others
 * lose the claim. Each repaired car's `updated_at` moves, so synced copies pick the change up.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    update cars c set parking_spot_id = a.parking_spot_id, parking_zone_id = a.parking_zone_id,
      parking_spot = s.name, updated_at = now()
    from parking_assignments a left join parking_spots s on s.id = a.parking_spot_id
    where a.car_id = c.id and a.ended_at is null
      and (c.parking_spot_id is distinct from a.parking_spot_id or c.parking_zone_id is distinct from a.parking_zone_id
        or c.parking_spot is distinct from s.name)`);
  await knex.raw(`
    update cars c set parking_spot_id = null, parking_spot = null, updated_at = now()
    where c.parking_spot_id is not null
      and not exists (select 1 from parking_spots s where s.id = c.parking_spot_id and s.team_id = c.team_id)`);
  await knex.raw(`
    update cars c set parking_zone_id = null, updated_at = now()
    where c.parking_zone_id is not null
      and not exists (select 1 from parking_zones z where z.id = c.parking_zone_id and z.team_id = c.team_id)`);
  await knex.raw(`
    with claims as (
      select c.id, c.parking_spot_id,
        row_number() over (partition by c.parking_spot_id order by c.created_at, c.id) as n
      from cars c where c.parking_spot_id is not null and not ${ACTIVE('c')}
    )
    update cars c set parking_spot_id = null, parking_zone_id = null, parking_spot = null, updated_at = now()
    from claims k join parking_spots s on s.id = k.parking_spot_id
    where c.id = k.id and (k.n > 1 or s.car_id is not null
      or exists (select 1 from parking_assignments a where a.parking_spot_id = s.id and a.ended_at is null))`);
  await knex.raw(`
    update cars c set parking_zone_id = s.parking_zone_id, parking_spot = s.name, updated_at = now()
    from parking_spots s
    where s.id = c.parking_spot_id and not ${ACTIVE('c')}
      and (c.parking_zone_id is distinct from s.parking_zone_id or c.parking_spot is distinct from s.name)`);
  await knex.raw(`
    insert into parking_assignments
      (id, team_id, car_id, parking_spot_id, parking_zone_id, car_event_id, started_at, ended_at, created_at, updated_at)
    select gen_random_uuid(), c.team_id, c.id, c.parking_spot_id, c.parking_zone_id, null, c.updated_at, null, now(), now()
    from cars c where c.parking_zone_id is not null and not ${ACTIVE('c')}`);
  await knex.raw(`
    update parking_spots s set car_id = c.id, updated_at = now()
    from cars c where c.parking_spot_id = s.id and s.car_id is distinct from c.id`);

  await knex.raw('alter table parking_spots add constraint parking_spots_team_id_id_key unique (team_id, id)');
  await knex.raw('alter table parking_zones add constraint parking_zones_team_id_id_key unique (team_id, id)');
  await knex.raw(`alter table cars add constraint cars_parking_spot_team_fkey
    foreign key (team_id, parking_spot_id) references parking_spots (team_id, id)`);
  await knex.raw(`alter table cars add constraint cars_parking_zone_team_fkey
    foreign key (team_id, parking_zone_id) references parking_zones (team_id, id)`);
  await knex.raw(`alter table parking_assignments add constraint parking_assignments_spot_team_fkey
    foreign key (team_id, parking_spot_id) references parking_spots (team_id, id)`);
  await knex.raw(`alter table parking_assignments add constraint parking_assignments_zone_team_fkey
    foreign key (team_id, parking_zone_id) references parking_zones (team_id, id)`);
  await knex.raw(
    'create unique index cars_one_per_parking_spot on cars (parking_spot_id) where parking_spot_id is not null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists cars_one_per_parking_spot');
  for (const [table, constraint] of [
    ['parking_assignments', 'parking_assignments_zone_team_fkey'],
    ['parking_assignments', 'parking_assignments_spot_team_fkey'],
    ['cars', 'cars_parking_zone_team_fkey'],
    ['cars', 'cars_parking_spot_team_fkey'],
    ['parking_zones', 'parking_zones_team_id_id_key'],
    ['parking_spots', 'parking_spots_team_id_id_key'],
  ]) {
    await knex.raw(`alter table ${table} drop constraint if exists ${constraint}`);
  }
}
