export interface OutputOptions {
  json?: boolean;
  quiet?: boolean;
  color?: boolean;
}

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
}

/**
 * Columns from `{ HEADER: what it shows }`, in order: a field's name shows that field as it is, a function
 * what it returns for the row.
 */
export function columns<T>(shown: Record<string, (keyof T & string) | ((row: T) => unknown)>): Column<T>[] {
  return Object.entries(shown).map(([header, value]) => ({
    header,
    value: typeof value === 'function' ? value : (row: T) => row[value],
  }));
}

const isTty = () => Boolean(process.stdout.isTTY);

export function colorEnabled(options: OutputOptions, stream: NodeJS.WriteStream = process.stdout): boolean {
  return options.color !== false && !process.env.NO_COLOR && Boolean(stream.isTTY);
}

const cell = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** Aligned columns on a terminal; tab-separated, without padding, when piped (like `gh`). */
export function renderTable<T>(rows: T[], columns: Column<T>[], tty = isTty()): string {
  const matrix = [
    columns.map((c) => c.header),
    ...rows.map((r) => columns.map((c) => cell(c.value(r)).replace(/[\t\n]/g, ' '))),
  ];
  if (!tty) return `${matrix.map((line) => line.join('\t')).join('\n')}\n`;
  const widths = columns.map((_, i) => Math.max(...matrix.map((line) => (line[i] ?? '').length)));
  return `${matrix
    .map((line) =>
      line
        .map((v, i) => (i === line.length - 1 ? v : v.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

let printedJson = false;

export function printJson(value: unknown): void {
  printedJson = true;
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Whether this run has printed its JSON document: a failure after it must not print a second one. */
export function jsonPrinted(): boolean {
  return printedJson;
}

/**
 * `--json` among the arguments (before a `--`): read from argv too, since a usage error can end the parse
 * before Commander has set the option.
 */
export function wantsJson(argv: readonly string[], parsed: { json?: boolean }): boolean {
  if (parsed.json) return true;
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

export function printRecords<T>(records: T[], columns: Column<T>[], options: OutputOptions): void {
  if (options.json) printJson(records);
  else process.stdout.write(renderTable(records, columns));
}

/** One record: the object itself with `--json`, else a table of one row. */
export function printRecord<T>(record: T, columns: Column<T>[], options: OutputOptions): void {
  if (options.json) printJson(record);
  else printRecords([record], columns, options);
}

/** Messages for people go to stderr, so stdout stays parseable. */
export function info(options: OutputOptions, message: string): void {
  if (!options.quiet) process.stderr.write(`${message}\n`);
}
