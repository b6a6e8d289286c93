/** A nullable `timestamptz` column as the API writes it. */
export const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** A `jsonb` array of strings: PGlite hands it back parsed, some drivers as text. */
export const jsonArray = (value: string[] | string): string[] =>
  typeof value === 'string' ? (JSON.parse(value) as string[]) : value;
