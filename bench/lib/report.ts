import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './child-process.js';
import type { Figure } from './figure.js';

export function printTable(figures: Figure[]): void {
  const rows = figures.map((f) => [
    f.title,
    `${f.value} ${f.unit}`,
    `${f.floor} ${f.unit}`,
    String(f.ratio),
    f.targetOn === 'value' ? `${f.comparison} ${f.target} ${f.unit}` : `${f.comparison} ${f.target}`,
    f.met ? 'yes' : 'NO',
  ]);
  const header = ['benchmark', 'value', 'floor', 'ratio', 'target', 'met'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const row of rows) console.log(line(row));
}

export function writeResults(figures: Figure[], durationMs: number, file = join(ROOT, 'bench/results/latest.json')) {
  mkdirSync(join(file, '..'), { recursive: true });
  const machine = { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown' };
  const result = { date: new Date().toISOString(), durationSeconds: Math.round(durationMs / 1000), machine, figures };
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}
