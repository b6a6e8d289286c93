/**
 * A value written into SQL text as a literal, for the statements that must travel in one simple-protocol
 * message with `BEGIN` or `COMMIT` (that protocol has no parameters). Only the types those statements
 * bind are accepted; a quoted literal is untyped, so PostgreSQL gives it the type its place needs, as it
 * does a `$n` parameter.
 */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`Cannot write ${value} as an SQL literal`);
    return escapedText(String(value));
  }
  if (value instanceof Date) return escapedText(value.toISOString());
  if (typeof value === 'string') return escapedText(value);
  throw new TypeError(`Cannot write a ${typeof value} as an SQL literal; pass it as text`);
}

/** Fills knex-style `?` placeholders with literals, in order. */
export function withLiterals(sql: string, values: readonly unknown[]): string {
  let position = 0;
  const text = sql.replace(/\?/g, () => {
    if (position >= values.length) throw new RangeError(`More placeholders than the ${values.length} values given`);
    return sqlLiteral(values[position++]);
  });
  if (position !== values.length) throw new RangeError(`${values.length} values for ${position} placeholders`);
  return text;
}

/** What pg's `escapeLiteral` writes, with native replaces instead of its loop over every character. */
export function escapedText(text: string): string {
  // The protocol ends a query at a NUL byte: the rest of the message would be cut off, not escaped.
  if (text.includes('\0')) throw new TypeError('Text with a NUL character cannot be stored in PostgreSQL');
  const quoted = `'${text.replaceAll("'", "''")}'`;
  return text.includes('\\') ? ` E${quoted.replaceAll('\\', '\\\\')}` : quoted;
}
