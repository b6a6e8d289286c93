import fc from 'fast-check';
import type { Knex } from 'knex';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../src/db/connect-database.js';
import { escapedText, sqlLiteral, withLiterals } from '../src/db/sql-literal.js';
import { transactionBetween, transactionOpenedByFirstWrite } from '../src/repositories/bracketed-transaction.js';
import { HotStatement } from '../src/repositories/hot-statement.js';
import { engineName, onPostgres, openTestDatabase } from './support/test-database.js';

// An idempotent create's first and last statements travel with BEGIN and COMMIT on PostgreSQL: the
// transaction must still be one unit (any failure undoes all of it), give its connection back clean,
// and carry any text through the literals those messages need.
let database: Database;
const echo = new HotStatement('select ?::text as a, ?::int + 1 as b');
const addTeam = new HotStatement('insert into teams (id, name, created_at, updated_at) values (?, ?, ?, ?)');
const teamName = new HotStatement('select name from teams where id = ?');
const TRICKY = "it's ? $1 -- \\' \\\\ ; commit; ünïcødé 🚗";

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

const newTeam = (name: string) => [crypto.randomUUID(), name, new Date(), new Date()] as const;
const nameOf = async (id: string) => (await teamName.rows(database.knex, [id]))[0]?.name;

describe(`transactionBetween (${engineName})`, () => {
  it('hands the opening rows to the body and commits the closing statement with its writes', async () => {
    const [bodyId, closingId] = [newTeam('Body'), newTeam(TRICKY)];
    const result = await transactionBetween(
      database.knex,
      { statement: echo, values: [TRICKY, 41] },
      async (trx, rows) => {
        expect(rows).toEqual([{ a: TRICKY, b: 42 }]);
        await addTeam.rows(trx, bodyId);
        return { value: 'done', closing: { statement: addTeam, values: closingId } };
      },
    );
    expect(result).toBe('done');
    expect(await nameOf(bodyId[0])).toBe('Body');
    expect(await nameOf(closingId[0])).toBe(TRICKY);
  });

  it('commits without a closing statement when the body gives none', async () => {
    const team = newTeam('No closing');
    await transactionBetween(database.knex, { statement: echo, values: ['x', 1] }, async (trx) => {
      await addTeam.rows(trx, team);
      return { value: undefined };
    });
    expect(await nameOf(team[0])).toBe('No closing');
  });

  it("undoes the opening's and the body's writes when the body throws", async () => {
    const [opened, written] = [newTeam('Opened'), newTeam('Written')];
    await expect(
      transactionBetween(database.knex, { statement: addTeam, values: opened }, async (trx) => {
        await addTeam.rows(trx, written);
        throw new Error('body failed');
      }),
    ).rejects.toThrow('body failed');
    expect(await nameOf(opened[0])).toBeUndefined();
    expect(await nameOf(written[0])).toBeUndefined();
  });

  it('undoes everything when the closing statement fails, and every pooled connection stays usable', async () => {
    const failing = new HotStatement('select 1 / ?::int as x');
    // More runs than the pool has connections: a connection left in a failed transaction would surface.
    for (let run = 0; run < 12; run++) {
      const written = newTeam(`Written ${run}`);
      await expect(
        transactionBetween(database.knex, { statement: echo, values: ['a', 1] }, async (trx) => {
          await addTeam.rows(trx, written);
          return { value: run, closing: { statement: failing, values: [0] } };
        }),
      ).rejects.toThrow(/division by zero/);
      expect(await nameOf(written[0])).toBeUndefined();
    }
    expect(await echo.rows(database.knex, ['still', 1])).toEqual([{ a: 'still', b: 2 }]);
  });

  it('reports a failed opening without running the body, and the connection stays usable', async () => {
    const body = vi.fn();
    for (let run = 0; run < 12; run++) {
      await expect(
        transactionBetween(database.knex, { statement: new HotStatement('select 1 / ?::int'), values: [0] }, body),
      ).rejects.toThrow(/division by zero/);
    }
    expect(body).not.toHaveBeenCalled();
    expect(await echo.rows(database.knex, ['still', 1])).toEqual([{ a: 'still', b: 2 }]);
  });

  it('runs as a savepoint inside a transaction the caller holds, undone with it', async () => {
    const [outer, closing] = [newTeam('Outer'), newTeam('Closing')];
    await database.knex
      .transaction(async (trx: Knex.Transaction) => {
        await addTeam.rows(trx, outer);
        const rows = await transactionBetween(trx, { statement: echo, values: ['in', 1] }, async (_inner, opened) => ({
          value: opened,
          closing: { statement: addTeam, values: closing },
        }));
        expect(rows).toEqual([{ a: 'in', b: 2 }]);
        expect(await teamName.rows(trx, [closing[0]])).toEqual([{ name: 'Closing' }]);
        throw new Error('roll back the outer transaction');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back the outer transaction'));
    expect(await nameOf(outer[0])).toBeUndefined();
    expect(await nameOf(closing[0])).toBeUndefined();
  });

  it.skipIf(!onPostgres)('sends the opening with BEGIN and the closing with COMMIT: one message each', async () => {
    const sent = vi.spyOn(pg.Client.prototype, 'query');
    try {
      const [bodyId, closingId] = [newTeam('Counted'), newTeam('Counted closing')];
      await transactionBetween(database.knex, { statement: echo, values: ['a', 1] }, async (trx) => {
        await addTeam.rows(trx, bodyId);
        return { value: undefined, closing: { statement: addTeam, values: closingId } };
      });
      const texts = sent.mock.calls.map(([query]) =>
        typeof query === 'string' ? query : (query as { text: string }).text,
      );
      expect(texts).toHaveLength(3);
      expect(texts[0]).toMatch(/^begin;\s+select/);
      expect(texts[2]).toMatch(/;\s+commit$/);
    } finally {
      sent.mockRestore();
    }
  });
});

describe(`transactionOpenedByFirstWrite (${engineName})`, () => {
  /** The texts of the messages pg's client sends while `work` runs (none on PGlite). */
  async function messagesDuring(work: () => Promise<unknown>): Promise<string[]> {
    const sent = vi.spyOn(pg.Client.prototype, 'query');
    try {
      await work().catch(() => undefined);
      return sent.mock.calls.map(([query]) => (typeof query === 'string' ? query : (query as { text: string }).text));
    } finally {
      sent.mockRestore();
    }
  }
  const refuse = () => {
    throw new Error('refused by the opening');
  };

  it('settles the opening before the first statement answers, and commits the closing with the writes', async () => {
    const [bodyId, closingId] = [newTeam('First write'), newTeam(TRICKY)];
    const settled: unknown[] = [];
    const messages = await messagesDuring(() =>
      transactionOpenedByFirstWrite(
        database.knex,
        { statement: echo, values: [TRICKY, 41] },
        (rows) => settled.push(...rows),
        async (trx) => {
          await addTeam.rows(trx, bodyId);
          expect(settled).toEqual([{ a: TRICKY, b: 42 }]);
          return { value: 'done', closing: { statement: addTeam, values: closingId } };
        },
      ),
    );
    expect(settled).toHaveLength(1);
    expect(await nameOf(bodyId[0])).toBe('First write');
    expect(await nameOf(closingId[0])).toBe(TRICKY);
    if (onPostgres) {
      // BEGIN, the opening and the first write in one message; the closing and COMMIT in the other.
      expect(messages).toHaveLength(2);
      expect(messages[0]).toMatch(/^begin;\s+select .*;\s+insert into teams/s);
      expect(messages[1]).toMatch(/;\s+commit$/);
    }
  });

  it('rolls the first write back when the opening refuses, and every pooled connection stays usable', async () => {
    for (let run = 0; run < 12; run++) {
      const written = newTeam(`Refused ${run}`);
      const after = vi.fn();
      await expect(
        transactionOpenedByFirstWrite(database.knex, { statement: echo, values: ['a', 1] }, refuse, async (trx) => {
          await addTeam.rows(trx, written);
          after();
          return { value: run };
        }),
      ).rejects.toThrow('refused by the opening');
      expect(after).not.toHaveBeenCalled();
      expect(await nameOf(written[0])).toBeUndefined();
    }
    expect(await echo.rows(database.knex, ['still', 1])).toEqual([{ a: 'still', b: 2 }]);
  });

  it("settles the opening before a failing first statement's own error, which then fails the body", async () => {
    const failing = new HotStatement('select 1 / ?::int as x');
    for (let run = 0; run < 12; run++) {
      const settle = vi.fn();
      await expect(
        transactionOpenedByFirstWrite(database.knex, { statement: echo, values: ['a', 1] }, settle, async (trx) => {
          await failing.rows(trx, [0]);
          return { value: run };
        }),
      ).rejects.toThrow(/division by zero/);
      expect(settle).toHaveBeenCalledWith([{ a: 'a', b: 2 }]);
    }
    // The opening's refusal wins over the statement's own failure.
    await expect(
      transactionOpenedByFirstWrite(database.knex, { statement: echo, values: ['a', 1] }, refuse, async (trx) => {
        await failing.rows(trx, [0]);
        return { value: undefined };
      }),
    ).rejects.toThrow('refused by the opening');
    expect(await echo.rows(database.knex, ['still', 1])).toEqual([{ a: 'still', b: 2 }]);
  });

  it('sends the opening first when the first query is not a hot statement, or its values cannot be literals', async () => {
    const [byKnex, bound] = [newTeam('By knex'), newTeam('Bound')];
    const settle = vi.fn();
    const messages = await messagesDuring(() =>
      transactionOpenedByFirstWrite(database.knex, { statement: echo, values: ['a', 1] }, settle, async (trx) => {
        expect(await trx('teams').where({ id: byKnex[0] }).first()).toBeUndefined();
        expect(settle).toHaveBeenCalledTimes(1);
        await addTeam.rows(trx, byKnex);
        return { value: undefined };
      }),
    );
    if (onPostgres) expect(messages[0]).toMatch(/^begin;\s+select [^;]*$/s);
    expect(await nameOf(byKnex[0])).toBe('By knex');
    // A Buffer has no literal here: the statement runs bound, after the opening.
    const bytes = new HotStatement(
      "insert into teams (id, name, created_at, updated_at) values (?, convert_from(?, 'UTF8'), ?, ?)",
    );
    await transactionOpenedByFirstWrite(database.knex, { statement: echo, values: ['a', 1] }, vi.fn(), async (trx) => {
      await bytes.rows(trx, [bound[0], Buffer.from('Bound'), bound[2], bound[3]]);
      return { value: undefined };
    });
    expect(await nameOf(bound[0])).toBe('Bound');
  });

  it('settles the opening before committing a body that sent no query, and sends nothing for one that threw first', async () => {
    const closing = newTeam('Closing only');
    const settle = vi.fn();
    await transactionOpenedByFirstWrite(database.knex, { statement: echo, values: ['a', 1] }, settle, async () => ({
      value: undefined,
      closing: { statement: addTeam, values: closing },
    }));
    expect(settle).toHaveBeenCalledWith([{ a: 'a', b: 2 }]);
    expect(await nameOf(closing[0])).toBe('Closing only');
    const refusedClosing = newTeam('Refused closing');
    await expect(
      transactionOpenedByFirstWrite(database.knex, { statement: echo, values: ['a', 1] }, refuse, async () => ({
        value: undefined,
        closing: { statement: addTeam, values: refusedClosing },
      })),
    ).rejects.toThrow('refused by the opening');
    expect(await nameOf(refusedClosing[0])).toBeUndefined();
    const messages = await messagesDuring(() =>
      transactionOpenedByFirstWrite(database.knex, { statement: echo, values: ['a', 1] }, vi.fn(), async () => {
        throw new Error('before any query');
      }),
    );
    expect(messages).toEqual([]);
    expect(await echo.rows(database.knex, ['still', 1])).toEqual([{ a: 'still', b: 2 }]);
  });
});

describe('SQL literals', () => {
  it('writes the types the bracketed statements bind, and refuses the rest', () => {
    expect(sqlLiteral(null)).toBe('null');
    expect(sqlLiteral(true)).toBe('true');
    expect(sqlLiteral(201)).toBe("'201'");
    expect(sqlLiteral(new Date('2026-01-02T03:04:05.678Z'))).toBe("'2026-01-02T03:04:05.678Z'");
    expect(sqlLiteral("o'clock")).toBe("'o''clock'");
    expect(sqlLiteral('back\\slash')).toBe(" E'back\\\\slash'");
    expect(() => sqlLiteral(Number.NaN)).toThrow(TypeError);
    expect(() => sqlLiteral({ a: 1 })).toThrow(/pass it as text/);
    expect(() => sqlLiteral('nul\0byte')).toThrow(/NUL/);
  });

  it("escapes text exactly as pg's escapeLiteral does", () => {
    const text = fc.string({ unit: fc.constantFrom("'", '\\', 'a', ' ', 'E', '"', '$', 'ü', '🚗') });
    fc.assert(
      fc.property(text, (value) => escapedText(value) === pg.escapeLiteral(value)),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }).filter((value) => !value.includes('\0')),
        (value) => escapedText(value) === pg.escapeLiteral(value),
      ),
    );
  });

  it('fills each placeholder once and refuses a count that does not match', () => {
    expect(withLiterals('select ?, ?', ['a', 1])).toBe("select 'a', '1'");
    expect(() => withLiterals('select ?, ?', ['a'])).toThrow(RangeError);
    expect(() => withLiterals('select ?', ['a', 'b'])).toThrow(RangeError);
  });
});
