import knex from 'knex';
import { afterAll } from 'vitest';

/**
 * PostgreSQL mirror URLs for a suite, each in a fresh schema of its own (the test database also holds the
 * server's tables); every schema made is dropped after the suite. `prefix` names the suite's schemas.
 */
export function postgresMirrorSchemas(prefix: string, url = process.env.TEST_DATABASE_URL): () => Promise<string> {
  const schemas: string[] = [];
  afterAll(async () => {
    if (!url || schemas.length === 0) return;
    const db = knex({ client: 'pg', connection: url });
    for (const schema of schemas) await db.raw(`drop schema if exists ${schema} cascade`);
    await db.destroy();
  });
  return async () => {
    if (!url) throw new Error('postgresMirrorSchemas: TEST_DATABASE_URL is not set');
    const schema = `${prefix}_${Math.random().toString(36).slice(2, 10)}`;
    const db = knex({ client: 'pg', connection: url });
    await db.raw(`create schema ${schema}`);
    await db.destroy();
    schemas.push(schema);
    return `${url}${url.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
  };
}
