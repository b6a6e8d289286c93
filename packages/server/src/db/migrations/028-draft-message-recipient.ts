import type { Knex } from 'knex';

/**
 * A draft needs no recipient (the spec: a valid body is stored as a draft): a message written while its
 * customer has no email or phone keeps `to` null until it is sent, when the address of the moment is
 * taken or the send is refused.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table communication_messages alter column "to" drop not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`update communication_messages set "to" = '' where "to" is null`);
  await knex.raw('alter table communication_messages alter column "to" set not null');
}
