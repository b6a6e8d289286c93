const pad = (value: number, width: number) => String(value).padStart(width, '0');

/**
 * `date.toISOString()`, the same string, from the UTC getters. `toISOString` (and `JSON.stringify` of a
 * Date) sets up V8's time zone cache, which reads ~0.8 MB of ICU's data into a process that needs none of
 * it: every sync writes timestamps, and a `vsf sync` with nothing to sync peaked that much higher for it.
 * Years outside 0-9999 (six digits and a sign) and invalid dates (a RangeError) are left to `toISOString`.
 */
export function isoTime(date: Date = new Date()): string {
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return date.toISOString();
  return (
    `${pad(year, 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}` +
    `T${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}` +
    `.${pad(date.getUTCMilliseconds(), 3)}Z`
  );
}
