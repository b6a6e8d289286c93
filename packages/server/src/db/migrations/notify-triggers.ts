import type { Knex } from 'knex';

/** A row trigger that runs a notify function: its name, its table and the writes it fires after. */
export interface NotifyTrigger {
  name: string;
  table: string;
  /** `insert or update or delete`, `update or delete`, … */
  after: string;
}

/** A trigger function that sends notifications at commit (022, 032), and the triggers that run it. */
export interface NotifyFunction {
  name: string;
  /** Its PL/pgSQL statements, between `begin` and `end`. */
  body: string;
  triggers: NotifyTrigger[];
}

/** Creates (or replaces) the function, then its triggers. */
export async function createNotifyFunction(knex: Knex, fn: NotifyFunction): Promise<void> {
  await replaceNotifyBody(knex, fn);
  const { name, triggers } = fn;
  for (const trigger of triggers) {
    await knex.raw(`create trigger ${trigger.name} after ${trigger.after} on ${trigger.table}
    for each row execute function ${name}()`);
  }
}

/** Gives the function `body`; the triggers that run it stay as they are (a later migration's change of what notifies). */
export async function replaceNotifyBody(
  knex: Knex,
  { name, body }: Pick<NotifyFunction, 'name' | 'body'>,
): Promise<void> {
  await knex.raw(`
    create or replace function ${name}() returns trigger language plpgsql as $$
    begin${body}
    end $$`);
}

/** Drops the function's triggers, then the function. */
export async function dropNotifyFunction(knex: Knex, { name, triggers }: NotifyFunction): Promise<void> {
  for (const trigger of triggers) await knex.raw(`drop trigger if exists ${trigger.name} on ${trigger.table}`);
  await knex.raw(`drop function if exists ${name}()`);
}
