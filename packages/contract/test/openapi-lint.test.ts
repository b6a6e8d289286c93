import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { OPENAPI_FILES } from '../scripts/openapi-files.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const config = join(packageDir, 'redocly.yaml');
const redoclyBin = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
}

/** Runs `redocly lint` with the project's config; a failed lint exits 1 but still prints its JSON report. */
async function lint(file: string): Promise<LintReport> {
  const run = promisify(execFile)(
    process.execPath,
    [redoclyBin, 'lint', file, '--config', config, '--format=json', '--max-problems=1000'],
    { cwd: packageDir, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, REDOCLY_TELEMETRY: 'off' } },
  );
  const { stdout } = await run.catch((error: { stdout?: string; stderr?: string }) => {
    if (!error.stdout) throw new Error(`redocly lint ${file} printed no report: ${error.stderr}`);
    return { stdout: error.stdout };
  });
  return JSON.parse(stdout.slice(stdout.indexOf('{'))) as LintReport;
}

const describeProblems = (report: LintReport) =>
  report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`).join('\n');

describe('redocly lint (recommended + project rules in redocly.yaml)', () => {
  for (const file of Object.values(OPENAPI_FILES)) {
    it(`${file} has no errors and no warnings`, async () => {
      const report = await lint(join(packageDir, file));
      expect(describeProblems(report)).toBe('');
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    }, 60_000);
  }

  const scratch = mkdtempSync(join(tmpdir(), 'vsf-redocly-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('fails a document with an operation missing an example, its scopes or an example that breaks its schema', async () => {
    const document = JSON.parse(readFileSync(join(packageDir, OPENAPI_FILES.v1), 'utf8'));
    const createCar = document.paths['/cars'].post;
    delete createCar.responses['201'].content['application/json'].example;
    createCar.description = 'Creates a car.';
    document.paths['/cars'].get.responses['200'].content['application/json'].example.page = 'one';
    const file = join(scratch, 'broken.json');
    writeFileSync(file, JSON.stringify(document));

    const rules = new Set((await lint(file)).problems.map((p) => p.ruleId));
    expect(rules).toContain('rule/media-type-has-example');
    expect(rules).toContain('rule/operation-description-names-scopes');
    expect(rules).toContain('no-invalid-media-type-examples');
  }, 60_000);
});
