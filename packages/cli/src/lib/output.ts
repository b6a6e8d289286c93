export interface OutputOptions {
  json?: boolean;
  quiet?: boolean;
  color?: boolean;
}

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
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

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printRecords<T>(records: T[], columns: Column<T>[], options: OutputOptions): void {
  if (options.json) printJson(records);
  else process.stdout.write(renderTable(records, columns));
}

/** Messages for people go to stderr, so stdout stays parseable. */
export function info(options: OutputOptions, message: string): void {
  if (!options.quiet) process.stderr.write(`${message}\n`);
}
